import type { UpstreamSettings } from '../config/providers-file.types';
import { ModelAdapter } from '../contract/model-adapter.types';
import { FalAdapter } from './fal/fal.adapter';
import { OpenAiAdapter } from './openai/openai.adapter';
import { ReplicateAdapter } from './replicate/replicate.adapter';

/** The adapter that speaks an upstream's wire format. */
export function adapterFor(upstream: UpstreamSettings): ModelAdapter {
  switch (upstream.kind) {
    case 'openai':
      return new OpenAiAdapter(upstream) as ModelAdapter;
    case 'replicate':
      return new ReplicateAdapter(upstream) as ModelAdapter;
    case 'fal':
      return new FalAdapter(upstream) as ModelAdapter;
  }
}

// Submit latency alone at a fixed rate (open loop, after a discarded warm-up:
// warmUpSeconds): for phases whose tasks may not finish soon (behind a backlog).
import { openLoop, warmUpSeconds, withAgent } from './load.mjs';
import { latency } from './stats.mjs';

export async function submitLatency({ platform, keys, rate, duration }) {
  const { warm, records } = await withAgent(async (agent) => ({
    // discarded
    warm: await openLoop({
      baseUrl: platform.baseUrl,
      keys,
      rate,
      seconds: warmUpSeconds(keys, rate, platform.readyAt),
      agent,
    }),
    records: await openLoop({ baseUrl: platform.baseUrl, keys, rate, seconds: duration, agent }),
  }));
  const ok = records.filter((r) => r.status === 200 && r.id);
  const submit = latency(ok.map((r) => r.doneAt - r.sentAt));
  return {
    rate,
    non200: records.length - ok.length,
    submit_ms_p50: submit.p50,
    submit_ms_p99: submit.p99,
    ids: ok.map((r) => r.id),
    /** Every task accepted, the warm-up's included. */
    accepted: ok.length + warm.filter((r) => r.status === 200 && r.id).length,
  };
}

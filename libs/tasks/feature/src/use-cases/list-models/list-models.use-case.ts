import { Injectable } from '@nestjs/common';
import { CatalogueFilter, ModelCatalogue, ModelEntry } from '@genhub/providers';

/** GET /api/v3/models: the catalogue's entries, filtered. */
@Injectable()
export class ListModelsUseCase {
  constructor(private readonly catalogue: ModelCatalogue) {}

  execute(filter: CatalogueFilter): ModelEntry[] {
    return this.catalogue.list(filter);
  }
}

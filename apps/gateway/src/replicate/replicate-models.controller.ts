import { applyDecorators, Controller, Get, Param, Req, UseGuards } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import {
  AnyValidKey,
  ApiKeyGuard,
  AuthenticatedAccount,
  CurrentAccount,
  keyMayUse,
  RequiresScope,
} from '@genhub/accounts-feature';
import { AccountRepository } from '@genhub/accounts-data-access';
import {
  inputJsonSchema,
  ReplicateModelDto,
  ReplicateRoute,
  ReplicateVersionDto,
  ReplicateVersionPageDto,
  ReplicateWebhookSecretDto,
} from '@genhub/contracts/server';
import {
  AppErrorCode,
  AppException,
  replicateInvalidVersionMessage,
  replicateModelNotFoundMessage,
} from '@genhub/errors';
import { ModelCatalogue, type ModelDefinition } from '@genhub/providers';
import { replicateVersionOf } from '@genhub/tasks-feature';
import { PublicLinks } from '../transport/public-links.service';
import { REPLICATE_ROOT, type ReplicatePage } from './replicate-predictions.controller';

/** A model version as Replicate describes one: here, one run type of the model. */
export interface ReplicateVersion {
  id: string;
  /** genhub's run types have no creation time. */
  created_at: null;
  cog_version: null;
  openapi_schema: {
    openapi: '3.0.2';
    info: { title: string; version: string };
    components: { schemas: { Input: unknown } };
  };
}

export interface ReplicateModel {
  url: string;
  owner: string;
  name: string;
  description: string;
  visibility: 'public';
  run_count: number;
  github_url: null;
  paper_url: null;
  license_url: null;
  cover_image_url: null;
  default_example: null;
  latest_version: ReplicateVersion;
}

function versionOf(definition: ModelDefinition): ReplicateVersion {
  const id = replicateVersionOf(definition.slug);
  return {
    id,
    created_at: null,
    cog_version: null,
    openapi_schema: {
      openapi: '3.0.2',
      info: { title: `${definition.name} (${definition.runType})`, version: id },
      components: { schemas: { Input: inputJsonSchema(definition.inputSchema) ?? {} } },
    },
  };
}

/**
 * The Replicate-compatible model reads (decision 0137): a genhub
 * `provider/model` as a Replicate model, its run types as versions (the ids
 * `run('owner/name:version')` and `POST /predictions` take), and the account's
 * webhook signing secret where Replicate's client reads it.
 */
/** The path's model: a genhub provider and model. */
const OwnerAndName = (): MethodDecorator =>
  applyDecorators(
    ApiParam({ name: 'owner', description: 'The provider id.', example: 'local' }),
    ApiParam({ name: 'name', description: 'The model id.', example: 'video' }),
  );

@Controller(REPLICATE_ROOT)
@UseGuards(ApiKeyGuard)
export class ReplicateModelsController {
  constructor(
    private readonly catalogue: ModelCatalogue,
    private readonly accounts: AccountRepository,
    private readonly links: PublicLinks,
  ) {}

  @Get('models/:owner/:name')
  @AnyValidKey()
  @ReplicateRoute({
    operationId: 'replicateGetModel',
    tag: 'Replicate',
    summary: 'Get a model (Replicate-compatible)',
    ok: { description: 'The model.', type: ReplicateModelDto },
    errors: [AppErrorCode.NotFound],
  })
  @OwnerAndName()
  model(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param('owner') owner: string,
    @Param('name') name: string,
    @Req() request: FastifyRequest,
  ): ReplicateModel {
    const versions = this.versions(account, owner, name);
    const first = versions[0];
    return {
      url: `${this.links.origin(request)}/${REPLICATE_ROOT}/models/${owner}/${name}`,
      owner,
      name,
      description: first.description,
      visibility: 'public',
      run_count: 0,
      github_url: null,
      paper_url: null,
      license_url: null,
      cover_image_url: null,
      default_example: null,
      // Run types have no order in time: the first one listed.
      latest_version: versionOf(first),
    };
  }

  @Get('models/:owner/:name/versions')
  @AnyValidKey()
  @ReplicateRoute({
    operationId: 'replicateListModelVersions',
    tag: 'Replicate',
    summary: 'List a model’s versions (Replicate-compatible)',
    description: 'Its run types the key may use, each with its input schema.',
    ok: { description: 'The versions, one page.', type: ReplicateVersionPageDto },
    errors: [AppErrorCode.NotFound],
  })
  @OwnerAndName()
  versionList(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param('owner') owner: string,
    @Param('name') name: string,
  ): ReplicatePage<ReplicateVersion> {
    return {
      previous: null,
      next: null,
      results: this.versions(account, owner, name).map(versionOf),
    };
  }

  @Get('models/:owner/:name/versions/:version')
  @AnyValidKey()
  @ReplicateRoute({
    operationId: 'replicateGetModelVersion',
    tag: 'Replicate',
    summary: 'Get a model version (Replicate-compatible)',
    ok: { description: 'The version.', type: ReplicateVersionDto },
    errors: [AppErrorCode.NotFound],
  })
  @OwnerAndName()
  @ApiParam({ name: 'version', example: 'local~video~text-to-video' })
  version(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param('owner') owner: string,
    @Param('name') name: string,
    @Param('version') version: string,
  ): ReplicateVersion {
    const found = this.versions(account, owner, name).find(
      (d) => replicateVersionOf(d.slug) === version,
    );
    if (!found)
      throw new AppException('not_found', { message: replicateInvalidVersionMessage(version) });
    return versionOf(found);
  }

  /** The signing secret of the account's webhooks (every key of the account sees the same). */
  @Get('webhooks/default/secret')
  @RequiresScope('tasks:write')
  @ReplicateRoute({
    operationId: 'replicateGetWebhookSecret',
    tag: 'Replicate',
    summary: 'Get the webhook signing secret (Replicate-compatible)',
    description:
      'The `whsec_` secret the account’s webhooks are signed with; check a delivery with the client’s `validateWebhook`.',
    ok: { description: 'The secret.', type: ReplicateWebhookSecretDto },
    errors: [AppErrorCode.ScopeNotAllowed],
  })
  async webhookSecret(@CurrentAccount() account: AuthenticatedAccount): Promise<{ key: string }> {
    const key = await this.accounts.findWebhookSecret(account.id);
    if (!key) throw new AppException('not_found');
    return { key };
  }

  /** The model's run types the caller's key may use; none: 404, as for a model that is not there. */
  private versions(account: AuthenticatedAccount, owner: string, name: string): ModelDefinition[] {
    const model = `${owner}/${name}`;
    const versions = this.catalogue
      .all()
      .filter((d) => `${d.provider}/${d.model}` === model && keyMayUse(account, d.slug));
    if (versions.length === 0)
      throw new AppException('not_found', { message: replicateModelNotFoundMessage(model) });
    return versions;
  }
}

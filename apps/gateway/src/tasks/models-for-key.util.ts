import { type AuthenticatedAccount, keyMayUse } from '@genhub/accounts-feature';
import type { ModelEntryDto } from '@genhub/contracts/server';

/**
 * The model listing as the caller's key sees it (issue 37): only the run types
 * its `allowed_models` admit (`provider/model/run_type`), and only models with
 * at least one of them left.
 */
export function modelEntriesForKey(
  account: AuthenticatedAccount,
  entries: ModelEntryDto[],
): ModelEntryDto[] {
  if (account.apiKeyLimits.allowedModels === null) return entries;
  return entries.flatMap((entry) => {
    const runTypes = entry.run_types.filter((runType) =>
      keyMayUse(account, `${entry.id}/${runType}`),
    );
    if (!runTypes.length) return [];
    const inputSchemas = Object.fromEntries(
      Object.entries(entry.input_schemas).filter(([runType]) => runTypes.includes(runType)),
    );
    return [{ ...entry, run_types: runTypes, input_schemas: inputSchemas }];
  });
}

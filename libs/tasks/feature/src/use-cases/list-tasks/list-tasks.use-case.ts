import { Injectable } from '@nestjs/common';
import type {
  ListTasksQueryDto,
  TaskListItemDto,
  TaskListPageDto,
  TimingsDto,
} from '@genhub/contracts/server';
import { decodeKeysetCursor, encodeKeysetCursor } from '@genhub/database';
import { AppException } from '@genhub/errors';
import {
  type HistoryPosition,
  type HistoryRow,
  TaskHistoryRepository,
} from '@genhub/tasks-data-access';

export const DEFAULT_PAGE_SIZE = 20;

export interface ListTasksInput {
  accountId: string;
  query: ListTasksQueryDto;
}

const invalid = (field: string, message: string) =>
  new AppException('invalid_request', { message, fields: [field] });

/** The position a cursor names; anything else is a 400. */
function positionOf(cursor: string): HistoryPosition {
  const position = decodeKeysetCursor(cursor);
  if (!position) throw invalid('cursor', 'Invalid cursor: pass back next_cursor as it was given');
  return position;
}

function item(row: HistoryRow): TaskListItemDto {
  return {
    id: row.id,
    model: row.model,
    status: row.status,
    code: row.status === 'completed' ? 0 : row.status === 'failed' ? row.code : null,
    outputs: row.status === 'completed' ? (row.outputs ?? []) : [],
    error: row.status === 'failed' ? (row.error ?? '') : null,
    created_at: row.createdAt.toISOString(),
    ...(row.status === 'completed' && row.timings ? { timings: row.timings as TimingsDto } : {}),
    ...(row.input ? { input: row.input } : {}),
  };
}

/**
 * GET /api/v3/predictions: the caller's tasks, newest first, filtered, one
 * keyset page at a time (a page one past the limit tells whether another
 * follows). Stable while new tasks arrive: a cursor names a position, and
 * newer tasks sort before it.
 */
@Injectable()
export class ListTasksUseCase {
  constructor(private readonly history: TaskHistoryRepository) {}

  async execute({ accountId, query }: ListTasksInput): Promise<TaskListPageDto> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const createdAfter = query.created_after ? new Date(query.created_after) : undefined;
    const createdBefore = query.created_before ? new Date(query.created_before) : undefined;
    if (createdAfter && createdBefore && createdAfter >= createdBefore)
      throw invalid('created_after', 'created_after must be before created_before');
    const rows = await this.history.page({
      accountId,
      statuses: query.status ? [query.status] : undefined,
      modelPrefix: query.model,
      createdAfter,
      createdBefore,
      after: query.cursor ? positionOf(query.cursor) : undefined,
      limit: limit + 1,
      includeInput: query.include === 'input',
    });
    const page = rows.slice(0, limit);
    return {
      items: page.map(item),
      next_cursor: rows.length > limit ? encodeKeysetCursor(page[page.length - 1].position) : null,
    };
  }
}

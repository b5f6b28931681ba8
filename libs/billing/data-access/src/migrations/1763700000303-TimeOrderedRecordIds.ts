import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * New ledger records get time-ordered ids (UUID version 7, RFC 9562: the
 * time in ms, then random bits), as new tasks do (decision 0140): the
 * records' primary key then grows at its right edge instead of at a random
 * leaf, which after each checkpoint cost a whole page of WAL per record.
 * PostgreSQL 15 has no uuidv7(): the function sets a random UUID's first
 * 48 bits to the time and its version to 7. Existing ids stay as they are.
 */
export class TimeOrderedRecordIds1763700000303 implements MigrationInterface {
  name = 'TimeOrderedRecordIds1763700000303';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION billing.time_ordered_uuid() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
        SELECT encode(
          set_bit(set_bit(
            overlay(uuid_send(gen_random_uuid())
              PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
              FROM 1 FOR 6),
            52, 1), 53, 1),
          'hex')::uuid
      $$`);
    await q.query(
      `ALTER TABLE billing.records ALTER COLUMN id SET DEFAULT billing.time_ordered_uuid()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE billing.records ALTER COLUMN id SET DEFAULT gen_random_uuid()`);
    await q.query(`DROP FUNCTION billing.time_ordered_uuid()`);
  }
}

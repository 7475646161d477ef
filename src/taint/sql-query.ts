/**
 * A SQL query that only reads: one SELECT (or WITH … SELECT) statement, with nothing in it that
 * writes, runs a procedure, reaches a file or the network, or changes a setting. A tool that runs
 * such a statement reads, whatever its name says of running code (docs/validator.md, "How the
 * validator reads tools, requests and traces"); any other statement stays code.
 */

/** Statements longer than this are not read: they stay code. */
const MAX_QUERY = 20_000;

/** Words that make a SELECT more than a read (writes, procedures, files, network, settings), outside string literals. */
const NOT_A_READ =
  /\b(?:insert|update|delete|merge|upsert|replace|drop|alter|create|truncate|rename|grant|revoke|call|exec|execute|do|copy|unload|put|get|remove|into|outfile|dumpfile|load_file|load|attach|detach|pragma|set|reset|lock|unlock|vacuum|analyze|refresh|begin|commit|rollback|savepoint|declare|prepare|listen|notify|sleep|benchmark|waitfor|shutdown|kill|dblink\w*|pg_\w+|lo_\w+|xp_\w+|sp_\w+|sys_\w+|system\$\w+|http\w*|url\w*|utl_\w+|external_?\w*)\b/i;

/** Whether `value` is one SQL statement that only reads. */
export function selectOnly(value: string): boolean {
  if (value.length > MAX_QUERY) return false;
  // String literals and quoted names say nothing of what runs; comments may hide a second statement.
  const bare = value
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/"(?:[^"]|"")*"/g, '""')
    .replace(/`[^`]*`/g, '``');
  if (/--|\/\*|#/.test(bare)) return false;
  const statement = bare.trim().replace(/;\s*$/, '');
  if (statement.includes(';') || !/^\(?\s*(?:select|with)\b/i.test(statement)) return false;
  return !NOT_A_READ.test(statement);
}

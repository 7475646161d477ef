/**
 * The gate of the tests that read the real benchmark files (found through SABOTEUR_DATA_DIR). On a
 * laptop without the data they skip with a warning; in CI (CI=true), or when SABOTEUR_DATA_DIR is set
 * but lacks the files, the test file fails instead, so a CI run never passes by skipping them.
 */
export function requireData(present: boolean, what: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (present) return true;
  if (env.CI === 'true' || env.SABOTEUR_DATA_DIR) {
    throw new Error(
      `${what} (SABOTEUR_DATA_DIR=${env.SABOTEUR_DATA_DIR ?? 'unset'}, CI=${env.CI ?? 'unset'}): data tests do not skip here. ` +
        'Point SABOTEUR_DATA_DIR at a data folder (saboteur data fetch fills one) or unset it and CI to skip them.',
    );
  }
  console.warn(`SKIPPING: ${what} (set SABOTEUR_DATA_DIR to a data folder to run them)`);
  return false;
}

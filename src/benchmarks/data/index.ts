export { DATA_PINS } from './pins.js';
export {
  benchmarkDataDir,
  checkFile,
  dataCacheDir,
  DataError,
  fetchData,
  isPinnedBenchmark,
  pinnedFiles,
  PINNED_BENCHMARKS,
  verifyData,
  type Download,
  type PinnedBenchmark,
} from './store.js';
export type { FetchReport, FileState, PinnedFile, PinnedSource } from './types.js';

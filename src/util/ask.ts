/**
 * One prompt to a model, one answer back: what the graders' judge, the defenses' judges, the
 * intent annotator and semantic corruption each need of a model. The client that asks the model
 * server is `model/ask.ts`; the type lives here so the benchmarks' graders can take one too.
 */
export type Ask = (prompt: string) => Promise<string>;

/** The task handed to the pipeline (docs/pipeline-contract.md, "The task"): JSON on stdin and in SABOTEUR_TASK_FILE. */
export interface Task {
  id: string;
  benchmark: string;
  kind: 'code' | 'agentic';
  prompt: string;
  entryPoint?: string;
  tools?: { name: string; description?: string; inputSchema?: unknown }[];
  metadata: Record<string, unknown>;
}

export type Variant = 'control' | 'malicious';

/** What the pipeline returned for one task: from SABOTEUR_OUTPUT_FILE or the last JSON line of stdout. */
export interface PipelineOutput {
  completion?: string;
  answer?: string;
}

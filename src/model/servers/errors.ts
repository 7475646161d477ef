/** The one error a model start raises: its message names the config key to fix and what was seen. */
export class ModelStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelStartError';
  }
}

/**
 * The base of every error that a wrong or hostile input causes: a file, key or field the user (or
 * something the user pointed saboteur at) gave. The CLI maps it to exit 2; anything else that
 * escapes a command is an infrastructure failure (exit 3). Each subclass keeps its own name and
 * message, so a catch can still tell them apart.
 */
export class InputError extends Error {}

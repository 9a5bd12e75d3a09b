// The verifier's bounds that the config reads, apart from the loop so that resolving a config loads none of it.

/** Turns of a verifier when the hook says none (Claude Code's). */
export const DEFAULT_MAX_TURNS = 50;

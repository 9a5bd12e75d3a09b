// Below target, launcher and the agents: each of them takes a scope, and target (what an agent is) is built from
// the launcher's and the server's types, so the word cannot live there without a circle.
export type Scope = 'project' | 'user';

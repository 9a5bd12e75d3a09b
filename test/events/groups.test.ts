// Wildcard event keys (`*`, `group:...`): each group is a rule over the catalog's fields.
import { describe, expect, it } from 'vitest';
import { EVENTS } from '../../src/events/catalog.js';
import { EVENT_GROUPS, eventsOfKey, keySpecificity } from '../../src/events/groups.js';

describe('the groups', () => {
  it('are rules over the catalog: every event is in *, each group names only catalog events', () => {
    expect(eventsOfKey('*').map((e) => e.name)).toEqual(EVENTS.map((e) => e.name));
    expect(eventsOfKey('group:tool').map((e) => e.name)).toEqual(EVENTS.filter((e) => e.tool).map((e) => e.name));
    expect(eventsOfKey('group:session').map((e) => e.name)).toEqual(['sessionStart', 'sessionEnd']);
    expect(eventsOfKey('group:stop').map((e) => e.name)).toEqual(['stop', 'subagentStop']);
    expect(eventsOfKey('group:nope')).toEqual([]);
    for (const g of EVENT_GROUPS) expect(g.summary).not.toBe('');
  });
});

it("an event's own key is the most specific, then a group, then *", () => {
  expect([keySpecificity('preToolUse'), keySpecificity('group:tool'), keySpecificity('*')]).toEqual([0, 1, 2]);
});

/**
 * Static members (KIP-345) keep their group.instance.id across restarts. While a restarted member
 * replaces its old self, a describe can list both (KAFKA-12363); a static member is one member,
 * so only its newest entry is kept: the highest epoch where the RPC has epochs, else the later
 * entry, which the coordinator appends when the member rejoins.
 */
export function latestPerInstance<M>(
  members: readonly M[],
  instanceOf: (member: M) => string | null | undefined,
  epochOf: (member: M) => number = () => 0,
): M[] {
  const kept = new Map<string, number>();
  members.forEach((member, index) => {
    const instance = instanceOf(member);
    if (instance === null || instance === undefined) return;
    const previous = kept.get(instance);
    if (previous === undefined || epochOf(member) >= epochOf(members[previous] as M))
      kept.set(instance, index);
  });
  return members.filter((member, index) => {
    const instance = instanceOf(member);
    return instance === null || instance === undefined || kept.get(instance) === index;
  });
}

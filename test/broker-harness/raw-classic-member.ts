/**
 * A classic group member with a protocol type of the test's choosing (Kafka Connect's `connect`,
 * say), joined with raw JoinGroup / SyncGroup / Heartbeat requests through kafkajs's broker
 * connection: Kafka's Java consumer always sends `consumer`, and Connect's worker is not among the
 * test's dependencies. It stays Stable while it heartbeats.
 */

import { Kafka, logLevel } from 'kafkajs';

interface Coordinator {
  joinGroup(request: object): Promise<{ generationId: number; memberId: string }>;
  syncGroup(request: object): Promise<unknown>;
  heartbeat(request: object): Promise<unknown>;
  leaveGroup(request: object): Promise<unknown>;
}

interface Cluster {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  findGroupCoordinator(request: { groupId: string }): Promise<Coordinator>;
}

export interface RawMember {
  leave(): Promise<void>;
}

export async function joinRawClassicMember(options: {
  bootstrap: string;
  groupId: string;
  protocolType: string;
  clientId: string;
}): Promise<RawMember> {
  const kafka = new Kafka({
    brokers: [options.bootstrap],
    clientId: options.clientId,
    logLevel: logLevel.NOTHING,
  });
  // kafkajs keeps its cluster factory private; the consumer it serves always says `consumer`.
  const factory = Object.getOwnPropertySymbols(kafka).find(
    (s) => s.description === 'private:Kafka:createCluster',
  );
  if (!factory) throw new Error('kafkajs has no cluster factory');
  const cluster = (kafka as unknown as Record<symbol, (o: object) => Cluster>)[factory]?.({}) as Cluster;
  await cluster.connect();
  const coordinator = await cluster.findGroupCoordinator({ groupId: options.groupId });
  const join = (memberId: string) =>
    coordinator.joinGroup({
      groupId: options.groupId,
      sessionTimeout: 30_000,
      rebalanceTimeout: 30_000,
      memberId,
      protocolType: options.protocolType,
      groupProtocols: [{ name: 'sessioned', metadata: Buffer.from('worker-config') }],
    });
  let joined: { generationId: number; memberId: string };
  try {
    joined = await join('');
  } catch (error) {
    // JoinGroup v4+: the first join only hands out a member id.
    const memberId = (error as { memberId?: string }).memberId;
    if (!memberId) throw error;
    joined = await join(memberId);
  }
  const { generationId, memberId } = joined;
  await coordinator.syncGroup({
    groupId: options.groupId,
    generationId,
    memberId,
    groupAssignment: [{ memberId, memberAssignment: Buffer.from('assignment') }],
  });
  const beat = setInterval(() => {
    coordinator
      .heartbeat({ groupId: options.groupId, groupGenerationId: generationId, memberId })
      .catch(() => {});
  }, 3_000);
  return {
    async leave() {
      clearInterval(beat);
      await coordinator.leaveGroup({ groupId: options.groupId, memberId }).catch(() => {});
      await cluster.disconnect();
    },
  };
}

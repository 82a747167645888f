/*
 * Fixture: creates real Kafka groups of every type with Kafka's own clients and keeps them alive until
 * standard input closes or a line "stop" arrives; then it closes every client and exits 0.
 *
 *   java -cp 'CLIENTS_LIB/*' -Dlog4j2.configurationFile=test/broker-harness/log4j2-fixture.properties \
 *        -Dkafka.test.log.file=FILE test/broker-harness/Fixture.java ARGS...
 *
 * ARGS (every value is one argument, taken literally, so group ids may hold spaces, slashes, unicode;
 * run the JVM under a UTF-8 locale such as LC_ALL=C.UTF-8 for non-ASCII ones):
 *
 *   --bootstrap HOST:PORT            required
 *   --timeout-ms N                   time allowed until ALL READY (default 120000)
 *   --topic NAME PARTITIONS RECORDS  create topic NAME with PARTITIONS partitions if it does not exist and
 *                                    then produce RECORDS records into each partition (keys key-<i>, values
 *                                    value-<i mod 5>). An existing topic is left as it is. Repeatable.
 *   --group TYPE GROUP_ID            a group; TYPE is classic, consumer, share, streams or empty.
 *                                    The options that follow, up to the next --group, apply to it:
 *     --topics T1[,T2...]            required: the topics it subscribes to (streams: its source topics;
 *                                    empty: the topics whose offsets it commits). Topics without a --topic
 *                                    are created with 1 partition and no records.
 *     --members N                    members (streams: KafkaStreams instances), default 1; empty: ignored
 *     --client-id ID                 client.id of member i is ID-i (default fixture-TYPE)
 *     --instance-id PREFIX           classic, consumer: static members, group.instance.id PREFIX-i
 *     --commit K                     classic, consumer: each member commits offset min(K, log end) on every
 *                                    partition assigned to it (no other commits: auto commit is off);
 *                                    empty: commits min(K, log end) on every partition (default 0)
 *     --offset-reset earliest|latest classic, consumer, streams: auto.offset.reset (default earliest);
 *                                    share: sets the group config share.auto.offset.reset (default: the
 *                                    broker's, latest)
 *     --output TOPIC                 streams: sink topic (default GROUP_ID-counts), created if missing
 *
 * Streams topology: source(topics) -> groupBy(value) [repartition topic GROUP_ID-by-value-repartition]
 * -> count [changelog GROUP_ID-counts-changelog] -> output topic.
 *
 * Standard output carries only these lines:
 *   READY <index> <type> <group id>  group <index> (0-based, in argument order) is ready:
 *       classic, consumer: every partition of its topics is assigned, min(members, partitions) members
 *                          hold partitions, and the --commit offsets are committed;
 *       share:   Admin describe: Stable, N members, each with a non-empty assignment;
 *       streams: every KafkaStreams instance is RUNNING, Admin describe says Stable with N members,
 *                and (offset reset earliest) every partition it reads that holds records is committed at
 *                its log end;
 *       empty:   the Admin offset commit succeeded.
 *   ALL READY                        once every group is ready
 *   STOPPED                          every client closed, right before exit 0
 * Standard error: "ERROR ..." lines (and stack traces); exit code 1 on errors, 2 on bad arguments.
 * The clients log into -Dkafka.test.log.file.
 */

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ShareGroupDescription;
import org.apache.kafka.clients.admin.ShareMemberDescription;
import org.apache.kafka.clients.admin.StreamsGroupDescription;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

public class Fixture {
  static final Logger LOG = LoggerFactory.getLogger("Fixture");
  static final PrintStream OUT =
      new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
  static final PrintStream ERR =
      new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
  static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

  // ---- arguments ---------------------------------------------------------------------------------

  static final class TopicSpec {
    final String name;
    final int partitions;
    final int records;

    TopicSpec(String name, int partitions, int records) {
      this.name = name;
      this.partitions = partitions;
      this.records = records;
    }
  }

  static final class GroupSpec {
    final int index;
    final String type;
    final String id;
    final List<String> topics = new ArrayList<>();
    int members = 1;
    String clientId;
    String instanceId;
    long commit = -1;
    String offsetReset;
    String output;

    GroupSpec(int index, String type, String id) {
      this.index = index;
      this.type = type;
      this.id = id;
      this.clientId = "fixture-" + type;
    }

    String label() {
      return index + " " + type + " " + id;
    }
  }

  static final class Args {
    String bootstrap;
    long timeoutMs = 120_000;
    final Map<String, TopicSpec> topics = new LinkedHashMap<>();
    final List<GroupSpec> groups = new ArrayList<>();
  }

  static final class UsageException extends Exception {
    UsageException(String message) {
      super(message);
    }
  }

  static Args parse(String[] argv) throws UsageException {
    Args a = new Args();
    GroupSpec g = null;
    int i = 0;
    while (i < argv.length) {
      String opt = argv[i++];
      switch (opt) {
        case "--bootstrap":
          a.bootstrap = value(argv, i++, opt);
          break;
        case "--timeout-ms":
          a.timeoutMs = number(argv, i++, opt);
          break;
        case "--topic": {
          String name = value(argv, i++, opt);
          int partitions = (int) number(argv, i++, opt);
          int records = (int) number(argv, i++, opt);
          if (partitions < 1) throw new UsageException("--topic " + name + ": partitions must be >= 1");
          a.topics.put(name, new TopicSpec(name, partitions, records));
          break;
        }
        case "--group": {
          String type = value(argv, i++, opt);
          if (!List.of("classic", "consumer", "share", "streams", "empty").contains(type)) {
            throw new UsageException("--group: unknown type " + type);
          }
          g = new GroupSpec(a.groups.size(), type, value(argv, i++, opt));
          a.groups.add(g);
          break;
        }
        case "--topics":
          group(g, opt).topics.addAll(
              Stream.of(value(argv, i++, opt).split(",")).filter(s -> !s.isEmpty()).collect(Collectors.toList()));
          break;
        case "--members":
          group(g, opt).members = (int) number(argv, i++, opt);
          if (g.members < 1) throw new UsageException("--members must be >= 1");
          break;
        case "--client-id":
          group(g, opt).clientId = value(argv, i++, opt);
          break;
        case "--instance-id":
          group(g, opt).instanceId = value(argv, i++, opt);
          break;
        case "--commit":
          group(g, opt).commit = number(argv, i++, opt);
          break;
        case "--offset-reset":
          group(g, opt).offsetReset = value(argv, i++, opt);
          if (!List.of("earliest", "latest").contains(g.offsetReset)) {
            throw new UsageException("--offset-reset must be earliest or latest");
          }
          break;
        case "--output":
          group(g, opt).output = value(argv, i++, opt);
          break;
        default:
          throw new UsageException("unknown argument " + opt);
      }
    }
    if (a.bootstrap == null) throw new UsageException("--bootstrap is required");
    for (GroupSpec spec : a.groups) {
      if (spec.topics.isEmpty()) throw new UsageException("group " + spec.label() + ": --topics is required");
      if (spec.type.equals("streams") && spec.output == null) spec.output = spec.id + "-counts";
      if (spec.type.equals("empty") && spec.commit < 0) spec.commit = 0;
    }
    return a;
  }

  static String value(String[] argv, int i, String opt) throws UsageException {
    if (i >= argv.length) throw new UsageException(opt + " needs a value");
    return argv[i];
  }

  static long number(String[] argv, int i, String opt) throws UsageException {
    String v = value(argv, i, opt);
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new UsageException(opt + ": not a number: " + v);
    }
  }

  static GroupSpec group(GroupSpec g, String opt) throws UsageException {
    if (g == null) throw new UsageException(opt + " must follow a --group");
    return g;
  }

  // ---- groups ------------------------------------------------------------------------------------

  /** One group of the fixture; start() and ready() run on the main thread, members on their own. */
  abstract static class Group {
    final GroupSpec spec;
    final String bootstrap;
    volatile Throwable error;
    final List<Thread> threads = new ArrayList<>();
    volatile boolean stopping;

    Group(GroupSpec spec, String bootstrap) {
      this.spec = spec;
      this.bootstrap = bootstrap;
    }

    abstract void start(Admin admin) throws Exception;

    abstract boolean ready(Admin admin) throws Exception;

    /** What the group looks like now, for a timeout message. */
    abstract String state();

    /** Stops the members and closes their clients (called once, from any thread). */
    void close() {
      stopping = true;
      wakeUp();
      for (Thread t : threads) {
        try {
          t.join(CLOSE_TIMEOUT.toMillis() + 5_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }

    void wakeUp() {}

    void fail(Throwable t) {
      if (error == null) error = t;
    }

    void spawn(String name, Runnable body) {
      Thread t = new Thread(() -> {
        try {
          body.run();
        } catch (Throwable e) {
          if (!stopping) fail(e);
        }
      }, name);
      threads.add(t);
      t.start();
    }

    String clientId(int member) {
      return spec.clientId + "-" + member;
    }
  }

  /** classic and consumer groups: KafkaConsumer with group.protocol=classic|consumer. */
  static final class ConsumerGroup extends Group {
    final Set<TopicPartition> all = new HashSet<>();
    final Map<TopicPartition, Long> ends = new HashMap<>();
    final Set<TopicPartition> committed = ConcurrentHashMap.newKeySet();
    final List<Member> members = new ArrayList<>();

    ConsumerGroup(GroupSpec spec, String bootstrap) {
      super(spec, bootstrap);
    }

    final class Member implements Runnable {
      final int n;
      volatile KafkaConsumer<String, String> consumer;
      volatile Set<TopicPartition> assigned = Set.of();

      Member(int n) {
        this.n = n;
      }

      @Override
      public void run() {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, spec.id);
        p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, spec.type);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId(n));
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        // New partitions are noticed within a second (tests add partitions to live groups).
        p.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, "1000");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, spec.offsetReset == null ? "earliest" : spec.offsetReset);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        if (spec.instanceId != null) p.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, spec.instanceId + "-" + n);
        KafkaConsumer<String, String> c = new KafkaConsumer<>(p);
        consumer = c;
        try {
          c.subscribe(spec.topics);
          while (!stopping) {
            c.poll(Duration.ofMillis(200));
            Set<TopicPartition> now = Set.copyOf(c.assignment());
            if (spec.commit >= 0) commit(c, now);
            assigned = now;
          }
        } catch (WakeupException e) {
          if (!stopping) throw e;
        } finally {
          assigned = Set.of();
          c.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
              .withTimeout(CLOSE_TIMEOUT));
        }
      }

      void commit(KafkaConsumer<String, String> c, Set<TopicPartition> now) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TopicPartition tp : now) {
          // Partitions added after the start (tests add some to live groups) stay uncommitted.
          Long end = ends.get(tp);
          if (end != null && !committed.contains(tp)) offsets.put(tp, new OffsetAndMetadata(Math.min(spec.commit, end)));
        }
        if (offsets.isEmpty()) return;
        try {
          c.commitSync(offsets, Duration.ofSeconds(10));
          committed.addAll(offsets.keySet());
        } catch (WakeupException e) {
          throw e;
        } catch (KafkaException e) {
          // A rebalance under way, a coordinator moving: try again after the next poll.
          LOG.warn("group {}: commit failed, will retry: {}", spec.id, e.toString());
        }
      }
    }

    @Override
    void start(Admin admin) throws Exception {
      all.addAll(partitionsOf(admin, spec.topics));
      ends.putAll(endOffsets(admin, all));
      for (int i = 0; i < spec.members; i++) {
        Member m = new Member(i);
        members.add(m);
        spawn("fixture-" + spec.type + "-" + spec.index + "-" + i, m);
      }
    }

    @Override
    boolean ready(Admin admin) {
      Set<TopicPartition> union = new HashSet<>();
      int holding = 0;
      for (Member m : members) {
        Set<TopicPartition> s = m.assigned;
        if (!s.isEmpty()) holding++;
        union.addAll(s);
      }
      return union.equals(all)
          && holding == Math.min(spec.members, all.size())
          && (spec.commit < 0 || committed.containsAll(all));
    }

    @Override
    String state() {
      return members.stream().map(m -> "member " + m.n + " holds " + m.assigned).collect(Collectors.joining("; "))
          + (spec.commit >= 0 ? "; committed " + committed : "");
    }

    @Override
    void wakeUp() {
      for (Member m : members) {
        KafkaConsumer<String, String> c = m.consumer;
        if (c != null) c.wakeup();
      }
    }
  }

  /** share groups: KafkaShareConsumer. */
  static final class ShareGroup extends Group {
    final List<KafkaShareConsumer<String, String>> consumers = new ArrayList<>();
    volatile String lastState = "not described yet";

    ShareGroup(GroupSpec spec, String bootstrap) {
      super(spec, bootstrap);
    }

    @Override
    void start(Admin admin) throws Exception {
      if (spec.offsetReset != null) {
        ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, spec.id);
        AlterConfigOp set =
            new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", spec.offsetReset), AlterConfigOp.OpType.SET);
        admin.incrementalAlterConfigs(Map.of(group, List.of(set))).all().get(30, TimeUnit.SECONDS);
        // The broker that coordinates the group reads its copy of the metadata log, which can lag
        // the controller: a member joining before it shows the reset would start at latest.
        long until = System.nanoTime() + 30_000_000_000L;
        for (;;) {
          ConfigEntry e = admin.describeConfigs(List.of(group)).all().get(30, TimeUnit.SECONDS).get(group)
              .get("share.auto.offset.reset");
          if (e != null && spec.offsetReset.equals(e.value())) break;
          if (System.nanoTime() > until) throw new IllegalStateException("share.auto.offset.reset never showed");
          Thread.sleep(50);
        }
      }
      for (int i = 0; i < spec.members; i++) {
        final int n = i;
        spawn("fixture-share-" + spec.index + "-" + i, () -> {
          Properties p = new Properties();
          p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
          p.put(ConsumerConfig.GROUP_ID_CONFIG, spec.id);
          p.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId(n));
          p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
          p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
          KafkaShareConsumer<String, String> c = new KafkaShareConsumer<>(p);
          synchronized (consumers) {
            consumers.add(c);
          }
          try {
            c.subscribe(spec.topics);
            while (!stopping) c.poll(Duration.ofMillis(200));
          } catch (WakeupException e) {
            if (!stopping) throw e;
          } finally {
            c.close(CLOSE_TIMEOUT);
          }
        });
      }
    }

    @Override
    boolean ready(Admin admin) throws Exception {
      ShareGroupDescription d =
          admin.describeShareGroups(List.of(spec.id)).describedGroups().get(spec.id).get(10, TimeUnit.SECONDS);
      lastState = d.groupState() + ", members " + d.members().stream()
          .map(m -> m.clientId() + "=" + m.assignment().topicPartitions()).collect(Collectors.joining(", "));
      if (d.groupState() != GroupState.STABLE || d.members().size() != spec.members) return false;
      for (ShareMemberDescription m : d.members()) {
        if (m.assignment().topicPartitions().isEmpty()) return false;
      }
      return true;
    }

    @Override
    String state() {
      return lastState;
    }

    @Override
    void wakeUp() {
      synchronized (consumers) {
        for (KafkaShareConsumer<String, String> c : consumers) c.wakeup();
      }
    }
  }

  /** streams groups: KafkaStreams with group.protocol=streams. */
  static final class StreamsGroup extends Group {
    final List<KafkaStreams> instances = new ArrayList<>();
    final List<Path> stateDirs = new ArrayList<>();
    volatile String lastState = "not described yet";

    StreamsGroup(GroupSpec spec, String bootstrap) {
      super(spec, bootstrap);
    }

    @Override
    void start(Admin admin) throws Exception {
      ensureTopics(admin, bootstrap, List.of(new TopicSpec(spec.output, 1, 0)));
      for (int i = 0; i < spec.members; i++) {
        Path stateDir = Files.createTempDirectory("kafka-fixture-streams-");
        stateDirs.add(stateDir);
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, spec.id);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
        p.put(StreamsConfig.CLIENT_ID_CONFIG, clientId(i));
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 1000);
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class.getName());
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class.getName());
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG),
            spec.offsetReset == null ? "earliest" : spec.offsetReset);

        StreamsBuilder b = new StreamsBuilder();
        b.stream(spec.topics, Consumed.with(Serdes.String(), Serdes.String()))
            .groupBy((k, v) -> v == null ? "" : v, Grouped.with("by-value", Serdes.String(), Serdes.String()))
            .count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("counts"))
            .toStream()
            .to(spec.output, Produced.with(Serdes.String(), Serdes.Long()));

        KafkaStreams ks = new KafkaStreams(b.build(), p);
        ks.setUncaughtExceptionHandler(e -> {
          if (!stopping) fail(e);
          return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        ks.setStateListener((now, before) -> {
          if (now == KafkaStreams.State.ERROR && !stopping) fail(new IllegalStateException("KafkaStreams in ERROR"));
        });
        instances.add(ks);
        ks.start();
      }
    }

    @Override
    boolean ready(Admin admin) throws Exception {
      for (KafkaStreams ks : instances) {
        if (ks.state() != KafkaStreams.State.RUNNING) {
          lastState = "instances " + instances.stream().map(s -> s.state().toString()).collect(Collectors.joining(","));
          return false;
        }
      }
      StreamsGroupDescription d =
          admin.describeStreamsGroups(List.of(spec.id)).describedGroups().get(spec.id).get(10, TimeUnit.SECONDS);
      lastState = "RUNNING; group " + d.groupState() + " with " + d.members().size() + " members";
      if (d.groupState() != GroupState.STABLE || d.members().size() != spec.members) return false;
      return caughtUp(admin);
    }

    /**
     * Streams commits on its own clock (commit.interval.ms), so a Stable group may not have committed
     * yet, or may still be moving its offsets: tests that compare two readings need them fixed. With
     * earliest, the group is caught up once every partition it reads (source and repartition topics)
     * that holds records is committed at its log end.
     */
    boolean caughtUp(Admin admin) throws Exception {
      if ("latest".equals(spec.offsetReset)) return true;
      List<String> read = new ArrayList<>(spec.topics);
      for (String name : admin.listTopics().names().get(30, TimeUnit.SECONDS)) {
        if (name.startsWith(spec.id + "-") && name.endsWith("-repartition")) read.add(name);
      }
      Map<TopicPartition, Long> ends = endOffsets(admin, partitionsOf(admin, read));
      Map<TopicPartition, OffsetAndMetadata> committed =
          admin.listConsumerGroupOffsets(spec.id).partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
      List<String> behind = new ArrayList<>();
      ends.forEach((tp, end) -> {
        OffsetAndMetadata c = committed.get(tp);
        if (end > 0 && (c == null || c.offset() != end)) behind.add(tp + " at " + (c == null ? "none" : c.offset()) + " of " + end);
      });
      if (!behind.isEmpty()) lastState += "; committed behind the log end: " + String.join(", ", behind);
      return behind.isEmpty();
    }

    @Override
    String state() {
      return lastState;
    }

    @Override
    void close() {
      stopping = true;
      List<Thread> closers = new ArrayList<>();
      for (KafkaStreams ks : instances) {
        Thread t = new Thread(() -> {
          ks.close(org.apache.kafka.streams.CloseOptions
              .groupMembershipOperation(org.apache.kafka.streams.CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
              .withTimeout(CLOSE_TIMEOUT));
          ks.cleanUp();
        }, "fixture-streams-close");
        closers.add(t);
        t.start();
      }
      for (Thread t : closers) {
        try {
          t.join(CLOSE_TIMEOUT.toMillis() + 5_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      for (Path dir : stateDirs) deleteTree(dir);
    }
  }

  /** empty groups: an Admin offset commit to a group nobody joins (Kafka creates it Empty, classic). */
  static final class EmptyGroup extends Group {
    /**
     * Log ends by topic list: the topics are filled before any group starts, so one read serves every
     * empty group on the same topics (a fixture of thousands of them asks once, not once each).
     */
    static final Map<List<String>, Map<TopicPartition, Long>> ENDS = new HashMap<>();

    volatile boolean done;

    EmptyGroup(GroupSpec spec, String bootstrap) {
      super(spec, bootstrap);
    }

    @Override
    void start(Admin admin) throws Exception {
      Map<TopicPartition, Long> ends = ENDS.get(spec.topics);
      if (ends == null) {
        ends = endOffsets(admin, partitionsOf(admin, spec.topics));
        ENDS.put(List.copyOf(spec.topics), ends);
      }
      Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
      ends.forEach((tp, end) -> offsets.put(tp, new OffsetAndMetadata(Math.min(spec.commit, end))));
      // Not waited on here: the commits of every empty group travel side by side, and the ready
      // loop sees each one land (or fail, which fails the fixture with the group's name).
      admin.alterConsumerGroupOffsets(spec.id, offsets).all().whenComplete((ok, err) -> {
        if (err != null) error = err;
        else done = true;
      });
    }

    @Override
    boolean ready(Admin admin) {
      return done;
    }

    @Override
    String state() {
      return done ? "committed" : "not committed";
    }
  }

  // ---- topics ------------------------------------------------------------------------------------

  static void ensureTopics(Admin admin, String bootstrap, Collection<TopicSpec> specs) throws Exception {
    Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
    List<TopicSpec> created = new ArrayList<>();
    for (TopicSpec t : specs) {
      if (existing.contains(t.name)) continue;
      try {
        // The broker's default.replication.factor: 1 on the single test broker, 3 on the test
        // cluster, where a topic must outlive one node.
        admin.createTopics(List.of(new NewTopic(t.name, Optional.of(t.partitions), Optional.empty())))
            .all().get(30, TimeUnit.SECONDS);
        created.add(t);
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof TopicExistsException)) throw e;
      }
    }
    List<TopicSpec> toFill = created.stream().filter(t -> t.records > 0).collect(Collectors.toList());
    if (toFill.isEmpty()) return;
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.CLIENT_ID_CONFIG, "fixture-producer");
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
      List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
      for (TopicSpec t : toFill) {
        for (int partition = 0; partition < t.partitions; partition++) {
          for (int i = 0; i < t.records; i++) {
            sent.add(producer.send(new ProducerRecord<>(t.name, partition, "key-" + i, "value-" + (i % 5))));
          }
        }
      }
      producer.flush();
      for (java.util.concurrent.Future<?> f : sent) f.get(60, TimeUnit.SECONDS);
    }
  }

  static Set<TopicPartition> partitionsOf(Admin admin, List<String> topics) throws Exception {
    Map<String, TopicDescription> d = admin.describeTopics(topics).allTopicNames().get(30, TimeUnit.SECONDS);
    Set<TopicPartition> all = new HashSet<>();
    d.forEach((name, desc) -> desc.partitions().forEach(p -> all.add(new TopicPartition(name, p.partition()))));
    return all;
  }

  static Map<TopicPartition, Long> endOffsets(Admin admin, Set<TopicPartition> tps) throws Exception {
    Map<TopicPartition, OffsetSpec> req = new HashMap<>();
    for (TopicPartition tp : tps) req.put(tp, OffsetSpec.latest());
    Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> r =
        admin.listOffsets(req).all().get(30, TimeUnit.SECONDS);
    Map<TopicPartition, Long> ends = new HashMap<>();
    r.forEach((tp, info) -> ends.put(tp, info.offset()));
    return ends;
  }

  static void deleteTree(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException e) {
      LOG.warn("could not delete {}: {}", dir, e.toString());
    }
  }

  // ---- main --------------------------------------------------------------------------------------

  static final List<Group> GROUPS = new ArrayList<>();
  static volatile Admin ADMIN;
  static final AtomicBoolean CLOSED = new AtomicBoolean();
  static final CountDownLatch CLOSE_DONE = new CountDownLatch(1);

  public static void main(String[] argv) {
    Args args;
    try {
      args = parse(argv);
    } catch (UsageException e) {
      ERR.println("ERROR " + e.getMessage());
      ERR.println("usage: Fixture --bootstrap HOST:PORT [--topic NAME PARTITIONS RECORDS]... "
          + "[--group TYPE GROUP_ID --topics T1,T2 [--members N] [--client-id ID] [--instance-id PREFIX] "
          + "[--commit K] [--offset-reset earliest|latest] [--output TOPIC]]...  (see the top of Fixture.java)");
      System.exit(2);
      return;
    }

    CountDownLatch stopRequested = new CountDownLatch(1);
    Thread stdin = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          if (line.trim().equals("stop")) break;
        }
      } catch (IOException e) {
        // the parent is gone
      }
      stopRequested.countDown();
    }, "fixture-stdin");
    stdin.setDaemon(true);
    stdin.start();
    Runtime.getRuntime().addShutdownHook(new Thread(Fixture::closeAll, "fixture-shutdown"));

    int code = 0;
    try {
      code = run(args, stopRequested);
    } catch (Throwable e) {
      ERR.println("ERROR " + describe(e));
      e.printStackTrace(ERR);
      code = 1;
    }
    closeAll();
    if (code == 0) OUT.println("STOPPED");
    System.exit(code);
  }

  static int run(Args args, CountDownLatch stopRequested) throws Exception {
    Properties ap = new Properties();
    ap.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args.bootstrap);
    ap.put(AdminClientConfig.CLIENT_ID_CONFIG, "fixture-admin");
    ADMIN = Admin.create(ap);
    Admin admin = ADMIN;
    long deadline = System.currentTimeMillis() + args.timeoutMs;

    Map<String, TopicSpec> topics = new LinkedHashMap<>(args.topics);
    for (GroupSpec g : args.groups) {
      for (String t : g.topics) topics.putIfAbsent(t, new TopicSpec(t, 1, 0));
    }
    ensureTopics(admin, args.bootstrap, topics.values());

    for (GroupSpec g : args.groups) {
      Group group;
      switch (g.type) {
        case "classic":
        case "consumer":
          group = new ConsumerGroup(g, args.bootstrap);
          break;
        case "share":
          group = new ShareGroup(g, args.bootstrap);
          break;
        case "streams":
          group = new StreamsGroup(g, args.bootstrap);
          break;
        default:
          group = new EmptyGroup(g, args.bootstrap);
      }
      synchronized (GROUPS) {
        GROUPS.add(group);
      }
      try {
        group.start(admin);
      } catch (Exception e) {
        ERR.println("ERROR group " + g.label() + ": " + describe(e));
        e.printStackTrace(ERR);
        return 1;
      }
    }

    Set<Group> ready = new HashSet<>();
    boolean allReady = false;
    while (!stopRequested.await(allReady ? 500 : 200, TimeUnit.MILLISECONDS)) {
      for (Group g : GROUPS) {
        Throwable err = g.error;
        if (err != null) {
          ERR.println("ERROR group " + g.spec.label() + ": " + describe(err));
          err.printStackTrace(ERR);
          return 1;
        }
        if (ready.contains(g)) continue;
        boolean isReady;
        try {
          isReady = g.ready(admin);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
          LOG.info("group {}: not ready yet: {}", g.spec.id, e.toString());
          isReady = false;
        }
        if (isReady) {
          ready.add(g);
          OUT.println("READY " + g.spec.label());
        }
      }
      if (!allReady && ready.size() == GROUPS.size()) {
        allReady = true;
        OUT.println("ALL READY");
      }
      if (!allReady && System.currentTimeMillis() > deadline) {
        ERR.println("ERROR timed out after " + args.timeoutMs + " ms; not ready:");
        for (Group g : GROUPS) {
          if (!ready.contains(g)) ERR.println("ERROR   group " + g.spec.label() + ": " + g.state());
        }
        return 1;
      }
    }
    return 0;
  }

  /** Closes every client once (main thread or shutdown hook); later callers wait for the first. */
  static void closeAll() {
    if (!CLOSED.compareAndSet(false, true)) {
      try {
        CLOSE_DONE.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return;
    }
    try {
      List<Group> groups;
      synchronized (GROUPS) {
        groups = new ArrayList<>(GROUPS);
      }
      List<Thread> closers = new ArrayList<>();
      for (Group g : groups) {
        Thread t = new Thread(g::close, "fixture-close-" + g.spec.index);
        closers.add(t);
        t.start();
      }
      for (Thread t : closers) t.join(45_000);
      Admin admin = ADMIN;
      if (admin != null) admin.close(CLOSE_TIMEOUT);
    } catch (Throwable e) {
      ERR.println("ERROR while closing: " + describe(e));
    } finally {
      CLOSE_DONE.countDown();
    }
  }

  static String describe(Throwable e) {
    Throwable t = e;
    while ((t instanceof ExecutionException || t instanceof KafkaException) && t.getCause() != null
        && t.getCause() != t) {
      if (t instanceof KafkaException && !(t.getCause() instanceof KafkaException)) break;
      t = t.getCause();
    }
    return t.getClass().getName() + ": " + t.getMessage();
  }
}

/*
 * AdminBench: the same work as the HTTP benchmark, done with Kafka's own Java Admin client, so that
 * bench/groups.ts can print both side by side. One JVM for the whole run (warm JIT, one Admin),
 * driven by commands on standard input, one JSON answer line per command on standard output.
 *
 *   java -cp 'CLIENTS_LIB/*' bench/AdminBench.java --bootstrap HOST:PORT
 *
 * Commands (fields separated by single spaces; group ids here are ASCII):
 *   create PREFIX FROM TO TOPIC
 *       commits offset 0 on TOPIC-0 for groups PREFIX%07d, FROM <= i < TO: each commit makes an
 *       Empty classic group. Up to 1,000 commits in flight.            → {"ms":…}
 *   list REPEAT
 *       Admin.listGroups(), REPEAT times                                → {"count":…,"ms":[…]}
 *   describe KIND THREADS SECONDS PREFIX COUNT
 *       THREADS threads describe for SECONDS: COUNT 0 → the group PREFIX, else a random PREFIX%07d
 *       below COUNT. KIND: classic (describeClassicGroups) or consumer (describeConsumerGroups).
 *                                                                      → {"ops":…,"perSec":…,"p50":…,"p99":…}
 *   lag REPEAT PREFIX FROM TO
 *       committed offsets of those groups (one listConsumerGroupOffsets call) and the latest offset
 *       of their partitions (one listOffsets call), REPEAT times        → {"ms":[…]}
 *   estate REPEAT [TOPIC]
 *       the lag of every group as operators compute it: listGroups, one listConsumerGroupOffsets for
 *       all of them, one listOffsets (latest) for all their partitions; with TOPIC, only the groups with
 *       committed offsets on TOPIC are kept (consumers of a topic), REPEAT times
 *                                                                      → {"groups":…,"ms":[…]}
 *   quit
 */

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;

public class AdminBench {
  public static void main(String[] argv) throws Exception {
    String bootstrap = null;
    for (int i = 0; i < argv.length; i++) if (argv[i].equals("--bootstrap")) bootstrap = argv[++i];
    if (bootstrap == null) {
      System.err.println("ERROR --bootstrap is required");
      System.exit(2);
    }
    Properties props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(AdminClientConfig.CLIENT_ID_CONFIG, "admin-bench");
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "120000");
    props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "60000");
    try (Admin admin = Admin.create(props)) {
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      System.out.println("{\"ready\":true}");
      System.out.flush();
      for (String line; (line = in.readLine()) != null; ) {
        String[] f = line.trim().split(" ");
        String answer;
        try {
          answer = switch (f[0]) {
            case "create" -> create(admin, f[1], Integer.parseInt(f[2]), Integer.parseInt(f[3]), f[4]);
            case "list" -> list(admin, Integer.parseInt(f[1]));
            case "describe" -> describe(admin, f[1], Integer.parseInt(f[2]), Double.parseDouble(f[3]), f[4],
                Integer.parseInt(f[5]));
            case "lag" -> lag(admin, Integer.parseInt(f[1]), f[2], Integer.parseInt(f[3]), Integer.parseInt(f[4]));
            case "estate" -> estate(admin, Integer.parseInt(f[1]), f.length > 2 ? f[2] : null);
            case "quit" -> null;
            default -> throw new IllegalArgumentException("unknown command " + f[0]);
          };
        } catch (Exception e) {
          answer = "{\"error\":" + quote(String.valueOf(e)) + "}";
        }
        if (answer == null) break;
        System.out.println(answer);
        System.out.flush();
      }
    }
  }

  static String id(String prefix, int i) {
    return prefix + String.format("%07d", i);
  }

  static String create(Admin admin, String prefix, int from, int to, String topic) throws Exception {
    try {
      admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(60, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) throw e;
    }
    Map<TopicPartition, OffsetAndMetadata> offsets = Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(0));
    long start = System.nanoTime();
    Semaphore inFlight = new Semaphore(1000);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    for (int i = from; i < to && failure.get() == null; i++) {
      inFlight.acquire();
      admin.alterConsumerGroupOffsets(id(prefix, i), offsets).all().whenComplete((v, e) -> {
        if (e != null) failure.compareAndSet(null, e);
        inFlight.release();
      });
    }
    inFlight.acquire(1000);
    if (failure.get() != null) throw new RuntimeException(failure.get());
    return "{\"ms\":" + ms(start) + "}";
  }

  static String list(Admin admin, int repeat) throws Exception {
    List<Double> times = new ArrayList<>();
    int count = 0;
    for (int r = 0; r < repeat; r++) {
      long start = System.nanoTime();
      Collection<GroupListing> groups = admin.listGroups().all().get();
      times.add(ms(start));
      count = groups.size();
    }
    return "{\"count\":" + count + ",\"ms\":" + times + "}";
  }

  static String describe(Admin admin, String kind, int threads, double seconds, String prefix, int count)
      throws Exception {
    long end = System.nanoTime() + (long) (seconds * 1e9);
    ConcurrentLinkedQueue<long[]> samples = new ConcurrentLinkedQueue<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> workers = new ArrayList<>();
    long start = System.nanoTime();
    for (int t = 0; t < threads; t++) {
      Thread worker = new Thread(() -> {
        List<Long> mine = new ArrayList<>();
        try {
          while (System.nanoTime() < end && failure.get() == null) {
            String group = count == 0 ? prefix : id(prefix, ThreadLocalRandom.current().nextInt(count));
            long t0 = System.nanoTime();
            if (kind.equals("classic")) admin.describeClassicGroups(List.of(group)).all().get();
            else admin.describeConsumerGroups(List.of(group)).all().get();
            mine.add(System.nanoTime() - t0);
          }
        } catch (Exception e) {
          failure.compareAndSet(null, e);
        }
        samples.add(mine.stream().mapToLong(Long::longValue).toArray());
      });
      worker.start();
      workers.add(worker);
    }
    for (Thread w : workers) w.join();
    double elapsed = ms(start);
    if (failure.get() != null) throw new RuntimeException(failure.get());
    long[] all = samples.stream().flatMapToLong(java.util.Arrays::stream).sorted().toArray();
    double p50 = all.length == 0 ? 0 : all[all.length / 2] / 1e6;
    double p99 = all.length == 0 ? 0 : all[Math.min(all.length - 1, (int) (all.length * 0.99))] / 1e6;
    return "{\"ops\":" + all.length + ",\"perSec\":" + (all.length / (elapsed / 1000)) + ",\"p50\":" + p50
        + ",\"p99\":" + p99 + "}";
  }

  static String lag(Admin admin, int repeat, String prefix, int from, int to) throws Exception {
    Map<String, ListConsumerGroupOffsetsSpec> specs = new HashMap<>();
    for (int i = from; i < to; i++) specs.put(id(prefix, i), new ListConsumerGroupOffsetsSpec());
    List<Double> times = new ArrayList<>();
    for (int r = 0; r < repeat; r++) {
      long start = System.nanoTime();
      Map<String, Map<TopicPartition, OffsetAndMetadata>> committed =
          admin.listConsumerGroupOffsets(specs).all().get();
      Set<TopicPartition> partitions = new HashSet<>();
      committed.values().forEach(m -> partitions.addAll(m.keySet()));
      Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
      for (TopicPartition tp : partitions) latest.put(tp, OffsetSpec.latest());
      admin.listOffsets(latest).all().get();
      times.add(ms(start));
    }
    return "{\"ms\":" + times + "}";
  }

  static String estate(Admin admin, int repeat, String topic) throws Exception {
    List<Double> times = new ArrayList<>();
    int kept = 0;
    for (int r = 0; r < repeat; r++) {
      long start = System.nanoTime();
      Map<String, ListConsumerGroupOffsetsSpec> specs = new HashMap<>();
      for (GroupListing g : admin.listGroups().all().get()) specs.put(g.groupId(), new ListConsumerGroupOffsetsSpec());
      Map<String, Map<TopicPartition, OffsetAndMetadata>> committed =
          admin.listConsumerGroupOffsets(specs).all().get();
      Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
      for (Map<TopicPartition, OffsetAndMetadata> m : committed.values())
        for (TopicPartition tp : m.keySet())
          if (topic == null || tp.topic().equals(topic)) latest.put(tp, OffsetSpec.latest());
      Map<TopicPartition, org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo> ends =
          admin.listOffsets(latest).all().get();
      Map<String, Long> lag = new HashMap<>();
      for (Map.Entry<String, Map<TopicPartition, OffsetAndMetadata>> e : committed.entrySet()) {
        long sum = 0;
        boolean reads = false;
        for (Map.Entry<TopicPartition, OffsetAndMetadata> c : e.getValue().entrySet()) {
          if (c.getValue() == null || !ends.containsKey(c.getKey())) continue;
          reads = true;
          sum += Math.max(0, ends.get(c.getKey()).offset() - c.getValue().offset());
        }
        if (topic == null || reads) lag.put(e.getKey(), sum);
      }
      kept = lag.size();
      times.add(ms(start));
    }
    return "{\"groups\":" + kept + ",\"ms\":" + times + "}";
  }

  static double ms(long startNanos) {
    return Math.round((System.nanoTime() - startNanos) / 1e4) / 100.0;
  }

  static String quote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }
}

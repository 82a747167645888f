/*
 * Offsets: prints a group's offsets as Kafka's own Java Admin client sees them, so that tests can compare
 * the HTTP API's figures with Kafka's. Test-only; one run, one group, then exit.
 *
 *   java -cp 'CLIENTS_LIB/*' -Dlog4j2.configurationFile=test/broker-harness/log4j2-fixture.properties \
 *        -Dkafka.test.log.file=FILE test/broker-harness/Offsets.java ARGS...
 *
 * ARGS (every value is one argument, taken literally; run under a UTF-8 locale such as LC_ALL=C.UTF-8 for
 * non-ASCII group ids):
 *
 *   --bootstrap HOST:PORT                         required
 *   --group GROUP_ID                              required
 *   --isolation read_committed|read_uncommitted   isolation level of the END offsets (default read_uncommitted)
 *   --share                                       a share group: DescribeShareGroupOffsets instead of OffsetFetch
 *   --timeout-ms N                                Admin default.api.timeout.ms (default 30000)
 *
 * Standard output (topic names hold only [a-zA-Z0-9._-], so fields are separated by single spaces):
 *
 *   without --share: Admin.listConsumerGroupOffsets (OffsetFetch: classic, consumer and streams groups)
 *     COMMITTED <topic> <partition> <offset> <leaderEpoch or -1> <metadata, UTF-8 then base64; may be empty>
 *       one line per partition with a committed offset (partitions without one are left out)
 *   with --share: Admin.listShareGroupOffsets (DescribeShareGroupOffsets)
 *     SHARE <topic> <partition> <startOffset or -1> <leaderEpoch or -1> <lag or -1>
 *       one line per partition the share coordinator knows; -1 start offset: the share-partition state
 *       exists but is not initialised (Admin maps it to a null SharePartitionOffsetInfo); -1 lag: the broker
 *       gave none (DescribeShareGroupOffsets v0, i.e. before KIP-1226, or lag unknown)
 *   then, for the same partitions, Admin.listOffsets(OffsetSpec.latest(), isolation):
 *     END <topic> <partition> <offset>
 *   and last
 *     DONE
 *
 * Lines come sorted by topic, then partition. Errors: "ERROR ..." on standard error, exit 1 (2 on bad
 * arguments). The client logs into -Dkafka.test.log.file.
 */

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

public class Offsets {
  static final PrintStream OUT =
      new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
  static final PrintStream ERR =
      new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
  static final Comparator<TopicPartition> BY_TOPIC_PARTITION =
      Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);

  public static void main(String[] argv) {
    int code = run(argv, OUT, ERR);
    OUT.flush();
    System.exit(code);
  }

  /** One run with its output on `out` and `err`, and its exit code: main's, and ProgramServer's. */
  public static int run(String[] argv, PrintStream out, PrintStream err) {
    String bootstrap = null;
    String group = null;
    IsolationLevel isolation = IsolationLevel.READ_UNCOMMITTED;
    boolean share = false;
    long timeoutMs = 30_000;
    try {
      for (int i = 0; i < argv.length; i++) {
        String opt = argv[i];
        switch (opt) {
          case "--bootstrap" -> bootstrap = value(argv, ++i, opt);
          case "--group" -> group = value(argv, ++i, opt);
          case "--isolation" -> {
            String v = value(argv, ++i, opt);
            if (v.equals("read_committed")) isolation = IsolationLevel.READ_COMMITTED;
            else if (v.equals("read_uncommitted")) isolation = IsolationLevel.READ_UNCOMMITTED;
            else throw new IllegalArgumentException("--isolation must be read_committed or read_uncommitted");
          }
          case "--share" -> share = true;
          case "--timeout-ms" -> {
            timeoutMs = Long.parseLong(value(argv, ++i, opt));
            if (timeoutMs < 1) throw new IllegalArgumentException("--timeout-ms must be >= 1");
          }
          default -> throw new IllegalArgumentException("unknown argument " + opt);
        }
      }
      if (bootstrap == null) throw new IllegalArgumentException("--bootstrap is required");
      if (group == null) throw new IllegalArgumentException("--group is required");
    } catch (IllegalArgumentException e) {
      err.println("ERROR " + e.getMessage());
      err.println("usage: Offsets --bootstrap HOST:PORT --group ID "
          + "[--isolation read_committed|read_uncommitted] [--share] [--timeout-ms N]");
      return 2;
    }

    try {
      report(bootstrap, group, isolation, share, timeoutMs, out);
      return 0;
    } catch (Throwable e) {
      Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
      err.println("ERROR " + cause.getClass().getName() + ": " + cause.getMessage());
      cause.printStackTrace(err);
      return 1;
    }
  }

  static String value(String[] argv, int i, String opt) {
    if (i >= argv.length) throw new IllegalArgumentException(opt + " needs a value");
    return argv[i];
  }

  static void report(
      String bootstrap, String group, IsolationLevel isolation, boolean share, long timeoutMs, PrintStream out)
      throws Exception {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(AdminClientConfig.CLIENT_ID_CONFIG, "offsets-reporter");
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) Math.min(timeoutMs, Integer.MAX_VALUE));
    p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.min(timeoutMs, 15_000));
    long waitMs = timeoutMs + 5_000;
    List<String> lines = new ArrayList<>();
    try (Admin admin = Admin.create(p)) {
      List<TopicPartition> partitions = new ArrayList<>();
      if (share) {
        Map<TopicPartition, SharePartitionOffsetInfo> offsets = admin
            .listShareGroupOffsets(Map.of(group, new ListShareGroupOffsetsSpec()))
            .partitionsToOffsetInfo(group)
            .get(waitMs, TimeUnit.MILLISECONDS);
        List<TopicPartition> sorted = new ArrayList<>(offsets.keySet());
        sorted.sort(BY_TOPIC_PARTITION);
        for (TopicPartition tp : sorted) {
          SharePartitionOffsetInfo info = offsets.get(tp); // null: state not initialised (start offset -1)
          long start = info == null ? -1 : info.startOffset();
          int epoch = info == null ? -1 : info.leaderEpoch().orElse(-1);
          long lag = info == null ? -1 : info.lag().orElse(-1L);
          lines.add("SHARE " + tp.topic() + " " + tp.partition() + " " + start + " " + epoch + " " + lag);
          partitions.add(tp);
        }
      } else {
        Map<TopicPartition, OffsetAndMetadata> offsets = admin
            .listConsumerGroupOffsets(group)
            .partitionsToOffsetAndMetadata()
            .get(waitMs, TimeUnit.MILLISECONDS);
        List<TopicPartition> sorted = new ArrayList<>(offsets.keySet());
        sorted.sort(BY_TOPIC_PARTITION);
        for (TopicPartition tp : sorted) {
          OffsetAndMetadata om = offsets.get(tp); // null: no committed offset
          if (om == null) continue;
          String metadata = om.metadata() == null ? "" : om.metadata();
          lines.add("COMMITTED " + tp.topic() + " " + tp.partition() + " " + om.offset() + " "
              + om.leaderEpoch().orElse(-1) + " "
              + Base64.getEncoder().encodeToString(metadata.getBytes(StandardCharsets.UTF_8)));
          partitions.add(tp);
        }
      }

      if (!partitions.isEmpty()) {
        Map<TopicPartition, OffsetSpec> request = new LinkedHashMap<>();
        for (TopicPartition tp : partitions) request.put(tp, OffsetSpec.latest());
        Map<TopicPartition, ListOffsetsResultInfo> ends = admin
            .listOffsets(request, new ListOffsetsOptions(isolation))
            .all()
            .get(waitMs, TimeUnit.MILLISECONDS);
        for (TopicPartition tp : partitions) {
          ListOffsetsResultInfo info = ends.get(tp);
          if (info == null) throw new IllegalStateException("ListOffsets returned nothing for " + tp);
          lines.add("END " + tp.topic() + " " + tp.partition() + " " + info.offset());
        }
      }
      admin.close(Duration.ofSeconds(5));
    }
    // Everything or nothing: an error above leaves standard output empty.
    for (String line : lines) out.println(line);
    out.println("DONE");
    out.flush();
  }
}

/*
 * CommitOffset: commits the given offsets for a group with Kafka's own Admin client
 * (alterConsumerGroupOffsets), with no cap at the log end: tests use it for offsets no test topic could
 * reach by producing, such as values above 2^31. A group nobody joins is created Empty (classic).
 *
 *   java -cp 'CLIENTS_LIB/*' test/broker-harness/CommitOffset.java --bootstrap HOST:PORT --group GROUP_ID \
 *        --offset TOPIC PARTITION OFFSET [--offset ...]
 *
 * Prints "COMMITTED" once Kafka accepted every offset; "ERROR ..." on standard error and exit 1 otherwise.
 */

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

public class CommitOffset {
  public static void main(String[] argv) throws Exception {
    String bootstrap = null;
    String group = null;
    Map<TopicPartition, OffsetAndMetadata> offsets = new LinkedHashMap<>();
    for (int i = 0; i < argv.length; i++) {
      switch (argv[i]) {
        case "--bootstrap" -> bootstrap = argv[++i];
        case "--group" -> group = argv[++i];
        case "--offset" -> {
          TopicPartition tp = new TopicPartition(argv[i + 1], Integer.parseInt(argv[i + 2]));
          offsets.put(tp, new OffsetAndMetadata(Long.parseLong(argv[i + 3])));
          i += 3;
        }
        default -> {
          System.err.println("ERROR unknown argument " + argv[i]);
          System.exit(2);
        }
      }
    }
    if (bootstrap == null || group == null || offsets.isEmpty()) {
      System.err.println("ERROR usage: --bootstrap HOST:PORT --group ID --offset TOPIC PARTITION OFFSET ...");
      System.exit(2);
    }
    Properties props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
    try (Admin admin = Admin.create(props)) {
      admin.alterConsumerGroupOffsets(group, offsets).all().get(60, TimeUnit.SECONDS);
      System.out.println("COMMITTED");
    } catch (Exception e) {
      System.err.println("ERROR " + e);
      System.exit(1);
    }
  }
}

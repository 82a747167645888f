/*
 * AdminOps: the few changes and listings tests need beyond their fixtures, made by Kafka's own Java
 * Admin client. Test-only; one run, one operation, then exit.
 *
 *   java -cp 'CLIENTS_LIB/*' -Dlog4j2.configurationFile=test/broker-harness/log4j2-fixture.properties \
 *        -Dkafka.test.log.file=FILE test/broker-harness/AdminOps.java --bootstrap HOST:PORT OPERATION ARGS...
 *
 * OPERATION (every value is one argument, taken literally):
 *
 *   create-partitions TOPIC COUNT   grows TOPIC to COUNT partitions (Admin.createPartitions)
 *   delete-topic TOPIC              deletes TOPIC (Admin.deleteTopics)
 *   list-groups                     every group the cluster lists (Admin.listGroups), one line each:
 *                                     GROUP <group id, UTF-8 then base64> <protocol type, UTF-8 then base64>
 *   list-topics                     every topic but Kafka's internal ones (Admin.listTopics), one line each:
 *                                     TOPIC <name, UTF-8 then base64>
 *   describe-members GROUP          a classic or consumer group (Admin.describeConsumerGroups):
 *                                     MEMBER <group.instance.id or '', UTF-8 then base64>, one a member
 *   delete-records TOPIC PARTITION OFFSET
 *                                   moves the log start of TOPIC-PARTITION to OFFSET (Admin.deleteRecords)
 *   alter-offsets GROUP TOPIC PARTITION OFFSET
 *                                   commits OFFSET for GROUP on TOPIC-PARTITION (Admin.alterConsumerGroupOffsets;
 *                                   the group must have no members)
 *   produce TOPIC PARTITION COUNT   appends COUNT records to TOPIC-PARTITION (KafkaProducer, acks=all), one batch
 *                                   per record, and prints their offsets: OFFSET <offset>
 *   delete-groups GROUP...          deletes the groups, which must have no members (Admin.deleteConsumerGroups)
 *   elect-preferred-leaders         moves every partition's leadership to its preferred replica where it is not
 *                                   there (Admin.electLeaders, PREFERRED, all partitions)
 *   share-consume GROUP TOPIC COUNT a KafkaShareConsumer of share group GROUP reads TOPIC until COUNT records
 *                                   came (or 30 s passed), acknowledging each, and prints them:
 *                                     RECORD <partition> <offset>
 *   estate-lag PREFIX [TOPIC]       lag of every listed group whose id starts with PREFIX, share groups aside, as
 *                                   operators compute it with Admin: listGroups, one listConsumerGroupOffsets for
 *                                   all of them, one listOffsets (latest) for all their partitions; one line each:
 *                                     LAG <group id, UTF-8 then base64> <lag> <partitions with a committed offset>
 *                                   (with TOPIC, only that topic's partitions count)
 *
 * Standard output ends with DONE once the operation has completed. Errors: "ERROR ..." on standard error,
 * exit 1 (2 on bad arguments). The client logs into -Dkafka.test.log.file.
 */

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public class AdminOps {
  static final PrintStream OUT =
      new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
  static final PrintStream ERR =
      new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
  static final long WAIT_MS = 30_000;

  public static void main(String[] argv) {
    int code = run(argv, OUT, ERR);
    OUT.flush();
    System.exit(code);
  }

  /** One run with its output on `out` and `err`, and its exit code: main's, and ProgramServer's. */
  public static int run(String[] argv, PrintStream out, PrintStream err) {
    if (argv.length < 3 || !argv[0].equals("--bootstrap")) {
      err.println("ERROR usage: AdminOps --bootstrap HOST:PORT "
          + "create-partitions TOPIC COUNT | delete-topic TOPIC | list-groups | list-topics | describe-members GROUP"
          + " | delete-records TOPIC PARTITION OFFSET"
          + " | alter-offsets GROUP TOPIC PARTITION OFFSET | produce TOPIC PARTITION COUNT | delete-groups GROUP..."
          + " | estate-lag PREFIX [TOPIC]");
      return 2;
    }
    String bootstrap = argv[1];
    String operation = argv[2];
    List<String> args = List.of(argv).subList(3, argv.length);
    try {
      operate(bootstrap, operation, args, out);
      return 0;
    } catch (IllegalArgumentException e) {
      err.println("ERROR " + e.getMessage());
      return 2;
    } catch (Throwable e) {
      Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
      err.println("ERROR " + cause.getClass().getName() + ": " + cause.getMessage());
      cause.printStackTrace(err);
      return 1;
    }
  }

  static void operate(String bootstrap, String operation, List<String> args, PrintStream out) throws Exception {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(AdminClientConfig.CLIENT_ID_CONFIG, "admin-ops");
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) WAIT_MS);
    List<String> lines = new ArrayList<>();
    try (Admin admin = Admin.create(p)) {
      switch (operation) {
        case "create-partitions" -> {
          if (args.size() != 2) throw new IllegalArgumentException("create-partitions TOPIC COUNT");
          admin.createPartitions(Map.of(args.get(0), NewPartitions.increaseTo(Integer.parseInt(args.get(1)))))
              .all()
              .get(WAIT_MS, TimeUnit.MILLISECONDS);
        }
        case "delete-topic" -> {
          if (args.size() != 1) throw new IllegalArgumentException("delete-topic TOPIC");
          admin.deleteTopics(List.of(args.get(0))).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        }
        case "list-groups" -> {
          if (!args.isEmpty()) throw new IllegalArgumentException("list-groups takes no arguments");
          for (GroupListing g : admin.listGroups().all().get(WAIT_MS, TimeUnit.MILLISECONDS)) {
            lines.add("GROUP " + base64(g.groupId()) + " " + base64(g.protocol()));
          }
        }
        case "list-topics" -> {
          if (!args.isEmpty()) throw new IllegalArgumentException("list-topics takes no arguments");
          for (String name : admin.listTopics().names().get(WAIT_MS, TimeUnit.MILLISECONDS)) {
            lines.add("TOPIC " + base64(name));
          }
        }
        case "describe-members" -> {
          if (args.size() != 1) throw new IllegalArgumentException("describe-members GROUP");
          ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(args.get(0)))
              .describedGroups()
              .get(args.get(0))
              .get(WAIT_MS, TimeUnit.MILLISECONDS);
          for (MemberDescription m : d.members()) {
            lines.add("MEMBER " + base64(m.groupInstanceId().orElse("")));
          }
        }
        case "delete-records" -> {
          if (args.size() != 3) throw new IllegalArgumentException("delete-records TOPIC PARTITION OFFSET");
          TopicPartition tp = new TopicPartition(args.get(0), Integer.parseInt(args.get(1)));
          admin.deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(Long.parseLong(args.get(2)))))
              .all()
              .get(WAIT_MS, TimeUnit.MILLISECONDS);
        }
        case "alter-offsets" -> {
          if (args.size() != 4) throw new IllegalArgumentException("alter-offsets GROUP TOPIC PARTITION OFFSET");
          TopicPartition tp = new TopicPartition(args.get(1), Integer.parseInt(args.get(2)));
          admin.alterConsumerGroupOffsets(args.get(0), Map.of(tp, new OffsetAndMetadata(Long.parseLong(args.get(3)))))
              .all()
              .get(WAIT_MS, TimeUnit.MILLISECONDS);
        }
        case "produce" -> {
          if (args.size() != 3) throw new IllegalArgumentException("produce TOPIC PARTITION COUNT");
          Properties pp = new Properties();
          pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
          pp.put(ProducerConfig.CLIENT_ID_CONFIG, "admin-ops-producer");
          pp.put(ProducerConfig.ACKS_CONFIG, "all");
          pp.put(ProducerConfig.LINGER_MS_CONFIG, 0);
          pp.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
          pp.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
          int partition = Integer.parseInt(args.get(1));
          int count = Integer.parseInt(args.get(2));
          try (KafkaProducer<String, String> producer = new KafkaProducer<>(pp)) {
            // One send at a time: each record is its own batch, with its own timestamp.
            for (int i = 0; i < count; i++) {
              RecordMetadata m = producer
                  .send(new ProducerRecord<>(args.get(0), partition, "key-" + i, "value-" + i))
                  .get(WAIT_MS, TimeUnit.MILLISECONDS);
              lines.add("OFFSET " + m.offset());
            }
          }
        }
        case "delete-groups" -> {
          if (args.isEmpty()) throw new IllegalArgumentException("delete-groups GROUP...");
          admin.deleteConsumerGroups(args).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        }
        case "elect-preferred-leaders" -> {
          if (!args.isEmpty()) throw new IllegalArgumentException("elect-preferred-leaders takes no arguments");
          // Per partition, "election not needed" is an answer, not a failure: only the call's own fails.
          admin.electLeaders(ElectionType.PREFERRED, null).partitions().get(WAIT_MS, TimeUnit.MILLISECONDS);
        }
        case "share-consume" -> {
          if (args.size() != 3) throw new IllegalArgumentException("share-consume GROUP TOPIC COUNT");
          Properties cp = new Properties();
          cp.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
          cp.put(ConsumerConfig.GROUP_ID_CONFIG, args.get(0));
          cp.put(ConsumerConfig.CLIENT_ID_CONFIG, "admin-ops-share");
          cp.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
          cp.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
          int count = Integer.parseInt(args.get(2));
          long until = System.currentTimeMillis() + WAIT_MS;
          try (KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(cp)) {
            consumer.subscribe(List.of(args.get(1)));
            int seen = 0;
            while (seen < count && System.currentTimeMillis() < until) {
              for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                lines.add("RECORD " + r.partition() + " " + r.offset());
                seen++;
              }
            }
            consumer.commitSync();
          }
        }
        case "estate-lag" -> {
          if (args.isEmpty()) throw new IllegalArgumentException("estate-lag PREFIX [TOPIC]");
          String prefix = args.get(0);
          String topic = args.size() > 1 ? args.get(1) : null;
          Map<String, ListConsumerGroupOffsetsSpec> specs = new HashMap<>();
          for (GroupListing g : admin.listGroups().all().get(WAIT_MS, TimeUnit.MILLISECONDS)) {
            boolean share = g.type().map(t -> t == GroupType.SHARE).orElse(false);
            if (g.groupId().startsWith(prefix) && !share) specs.put(g.groupId(), new ListConsumerGroupOffsetsSpec());
          }
          Map<String, Map<TopicPartition, OffsetAndMetadata>> committed =
              admin.listConsumerGroupOffsets(specs).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
          Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
          for (Map<TopicPartition, OffsetAndMetadata> offsets : committed.values())
            for (TopicPartition tp : offsets.keySet())
              if (topic == null || tp.topic().equals(topic)) latest.put(tp, OffsetSpec.latest());
          Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends =
              admin.listOffsets(latest).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
          for (Map.Entry<String, Map<TopicPartition, OffsetAndMetadata>> e : committed.entrySet()) {
            long lag = 0;
            int partitions = 0;
            for (Map.Entry<TopicPartition, OffsetAndMetadata> c : e.getValue().entrySet()) {
              if (c.getValue() == null || (topic != null && !c.getKey().topic().equals(topic))) continue;
              partitions++;
              lag += Math.max(0, ends.get(c.getKey()).offset() - c.getValue().offset());
            }
            lines.add("LAG " + base64(e.getKey()) + " " + lag + " " + partitions);
          }
        }
        default -> throw new IllegalArgumentException("unknown operation " + operation);
      }
      admin.close(Duration.ofSeconds(5));
    }
    for (String line : lines) out.println(line);
    out.println("DONE");
    out.flush();
  }

  static String base64(String s) {
    return Base64.getEncoder().encodeToString((s == null ? "" : s).getBytes(StandardCharsets.UTF_8));
  }
}

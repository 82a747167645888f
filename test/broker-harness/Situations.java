/*
 * Situations: groups in trouble, made by Kafka's own clients, for the diagnosis tests. One situation a
 * run; it keeps its clients until standard input closes (then closes them and exits 0) or it is killed.
 *
 *   java -cp 'CLIENTS_LIB/*' test/broker-harness/Situations.java BOOTSTRAP SITUATION GROUP TOPIC PARTITIONS RECORDS
 *
 * The topic is created with PARTITIONS partitions and RECORDS records in each (if it does not exist).
 * SITUATION:
 *   stall-classic   a classic consumer (max.poll.interval.ms 20 s) takes every partition, commits, then stops
 *                   polling; a second classic consumer joins: the group waits in PreparingRebalance until
 *                   the first one's poll interval runs out and it leaves.        Prints STALLED, then JOINING.
 *   stall-consumer  the same with group.protocol=consumer and a rebalance listener: the first member cannot
 *                   revoke (its callback runs in poll), so it keeps partitions pending revocation.
 *                                                                                Prints STALLED, then JOINING.
 *   static          a static classic member (group.instance.id GROUP-static, session.timeout.ms 60 s) that
 *                   consumes one record every 100 ms and commits each. Prints CONSUMING once it has committed.
 *   mixed           a consumer-protocol member, then a classic member joins the same group (a mixed group).
 *                   Prints MIXED once both hold partitions.
 * Errors: "ERROR ..." on standard error, exit 1.
 */

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public class Situations {
  static String bootstrap;
  static final AtomicBoolean stopping = new AtomicBoolean();
  static final List<KafkaConsumer<String, String>> consumers = new ArrayList<>();

  public static void main(String[] argv) throws Exception {
    if (argv.length != 6) {
      System.err.println("ERROR usage: BOOTSTRAP SITUATION GROUP TOPIC PARTITIONS RECORDS");
      System.exit(2);
    }
    bootstrap = argv[0];
    String situation = argv[1], group = argv[2], topic = argv[3];
    createTopic(topic, Integer.parseInt(argv[4]), Integer.parseInt(argv[5]));
    try {
      switch (situation) {
        case "stall-classic" -> stall(group, topic, "classic");
        case "stall-consumer" -> stall(group, topic, "consumer");
        case "static" -> staticMember(group, topic);
        case "mixed" -> mixed(group, topic);
        default -> throw new IllegalArgumentException("unknown situation " + situation);
      }
      // Until standard input closes (or a "stop" line), then close every client.
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      String line;
      while ((line = in.readLine()) != null && !line.equals("stop")) {}
    } catch (Exception e) {
      System.err.println("ERROR " + e);
      e.printStackTrace();
      System.exit(1);
    }
    stopping.set(true);
    synchronized (consumers) {
      for (KafkaConsumer<String, String> c : consumers) c.wakeup();
    }
    Thread.sleep(500);
    System.exit(0);
  }

  static void createTopic(String topic, int partitions, int records) throws Exception {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    try (Admin admin = Admin.create(p)) {
      try {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof TopicExistsException)) throw e;
        return;
      }
    }
    Properties pp = new Properties();
    pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    pp.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    pp.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(pp)) {
      for (int part = 0; part < partitions; part++)
        for (int i = 0; i < records; i++) producer.send(new ProducerRecord<>(topic, part, "key-" + i, "value-" + i));
      producer.flush();
    }
  }

  static KafkaConsumer<String, String> consumer(String group, String protocol, String clientId, Map<String, Object> extra) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, protocol);
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    p.putAll(extra);
    KafkaConsumer<String, String> c = new KafkaConsumer<>(p);
    synchronized (consumers) {
      consumers.add(c);
    }
    return c;
  }

  /** Polls (committing what it read) until it holds at least one partition. */
  static void pollUntilAssigned(KafkaConsumer<String, String> c) {
    long deadline = System.currentTimeMillis() + 60_000;
    while (c.assignment().isEmpty()) {
      if (System.currentTimeMillis() > deadline) throw new IllegalStateException("no assignment within 60 s");
      if (!c.poll(Duration.ofMillis(200)).isEmpty()) c.commitSync();
    }
  }

  /** Polls until the consumer's position is at the end of every partition it holds, then commits. */
  static void drain(KafkaConsumer<String, String> c) {
    long deadline = System.currentTimeMillis() + 60_000;
    Map<TopicPartition, Long> ends = c.endOffsets(c.assignment());
    while (ends.entrySet().stream().anyMatch(e -> c.position(e.getKey()) < e.getValue())) {
      if (System.currentTimeMillis() > deadline) throw new IllegalStateException("not at the end within 60 s");
      c.poll(Duration.ofMillis(200));
    }
    c.commitSync();
  }

  /** Polls in a thread of its own, committing what it reads, until the run stops. */
  static Thread pollForever(KafkaConsumer<String, String> c) {
    Thread t = new Thread(() -> {
      try {
        while (!stopping.get()) {
          if (!c.poll(Duration.ofMillis(200)).isEmpty()) c.commitSync();
        }
      } catch (WakeupException e) {
        // stopping
      } catch (Exception e) {
        if (!stopping.get()) System.err.println("ERROR poller: " + e);
      } finally {
        c.close(Duration.ofSeconds(5));
      }
    });
    t.setDaemon(true);
    t.start();
    return t;
  }

  static void stall(String group, String topic, String protocol) {
    Map<String, Object> extra = Map.of(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, "20000");
    KafkaConsumer<String, String> first = consumer(group, protocol, group + "-stalled", extra);
    // A listener: with the consumer protocol, revocation then waits for the application thread (poll).
    first.subscribe(List.of(topic), new ConsumerRebalanceListener() {
      public void onPartitionsRevoked(Collection<TopicPartition> partitions) {}
      public void onPartitionsAssigned(Collection<TopicPartition> partitions) {}
    });
    pollUntilAssigned(first);
    // Everything read and committed before it stalls: with records left it would also be a member not
    // consuming, and whether a first poll had fetched some of them or none was up to the machine's load.
    drain(first);
    System.out.println("STALLED");
    KafkaConsumer<String, String> second = consumer(group, protocol, group + "-joiner", extra);
    second.subscribe(List.of(topic));
    pollForever(second);
    System.out.println("JOINING");
  }

  static void staticMember(String group, String topic) {
    KafkaConsumer<String, String> c = consumer(group, "classic", group + "-static", Map.of(
        ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, group + "-static",
        ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "60000",
        ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "1"));
    c.subscribe(List.of(topic));
    AtomicBoolean said = new AtomicBoolean();
    Thread t = new Thread(() -> {
      try {
        while (!stopping.get()) {
          for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
            Thread.sleep(100);
            c.commitSync(Map.of(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1)));
            if (!said.getAndSet(true)) System.out.println("CONSUMING");
          }
        }
      } catch (WakeupException | InterruptedException e) {
        // stopping
      } finally {
        c.close(Duration.ofSeconds(5));
      }
    });
    t.setDaemon(true);
    t.start();
  }

  static void mixed(String group, String topic) throws InterruptedException {
    KafkaConsumer<String, String> modern = consumer(group, "consumer", group + "-consumer", Map.of());
    modern.subscribe(List.of(topic));
    pollUntilAssigned(modern);
    pollForever(modern);
    KafkaConsumer<String, String> classic = consumer(group, "classic", group + "-classic", Map.of());
    classic.subscribe(List.of(topic));
    pollUntilAssigned(classic);
    pollForever(classic);
    System.out.println("MIXED");
  }
}

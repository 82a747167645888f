/*
 * ProducerRig: records of known times, or produced and consumed at known rates, with Kafka's own
 * Admin client, producer and consumers. Test-only: resets by time need records whose times are
 * known; rates and forecasts need a group whose pace is known.
 *
 *   java -cp 'CLIENTS_LIB/*' test/broker-harness/ProducerRig.java --bootstrap HOST:PORT --topic TOPIC PARTITIONS \
 *        [--retention-ms MS] [--retention-bytes BYTES] [--batch TIMESTAMP_MS COUNT ...] [--backlog N]
 *        (--once | [--produce PER_SECOND] [--consumer GROUP PER_SECOND PROTOCOL ...])
 *
 * Creates the topic (with retention.ms and retention.bytes when given). Each --batch, in the order
 * given, appends COUNT records with record time TIMESTAMP_MS to every partition; --backlog appends N
 * records of the current time. With --once it prints DONE once every record is acknowledged and
 * exits. Otherwise it produces PER_SECOND records a second (spread over the partitions) while each
 * consumer (group.protocol PROTOCOL) reads one record at a time at its own pace and commits each;
 * it prints READY once every consumer has committed, and runs until its standard input closes. "ERROR ..." on standard error and exit 1 on a failure.
 */

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public class ProducerRig {
  static final AtomicBoolean stopping = new AtomicBoolean(false);

  public static void main(String[] argv) {
    try {
      run(argv);
      System.exit(0);
    } catch (Throwable e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      System.err.println("ERROR " + cause.getClass().getName() + ": " + cause.getMessage());
      cause.printStackTrace();
      System.exit(1);
    }
  }

  static void run(String[] argv) throws Exception {
    String bootstrap = null;
    String topic = null;
    int partitions = 1;
    Long retentionMs = null;
    Long retentionBytes = null;
    // {record time or null for the current time, records per partition}, appended in order.
    List<Long[]> batches = new java.util.ArrayList<>();
    double produce = 0;
    boolean once = false;
    List<String[]> consumers = new java.util.ArrayList<>();
    for (int i = 0; i < argv.length; i++) {
      switch (argv[i]) {
        case "--bootstrap" -> bootstrap = argv[++i];
        case "--topic" -> {
          topic = argv[++i];
          partitions = Integer.parseInt(argv[++i]);
        }
        case "--retention-ms" -> retentionMs = Long.parseLong(argv[++i]);
        case "--retention-bytes" -> retentionBytes = Long.parseLong(argv[++i]);
        case "--batch" -> batches.add(new Long[] {Long.parseLong(argv[++i]), Long.parseLong(argv[++i])});
        case "--backlog" -> batches.add(new Long[] {null, Long.parseLong(argv[++i])});
        case "--once" -> once = true;
        case "--produce" -> produce = Double.parseDouble(argv[++i]);
        case "--consumer" -> consumers.add(new String[] {argv[++i], argv[++i], argv[++i]});
        default -> throw new IllegalArgumentException("unknown argument " + argv[i]);
      }
    }
    if (bootstrap == null || topic == null)
      throw new IllegalArgumentException("--bootstrap and --topic are required");
    Properties common = new Properties();
    common.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    try (Admin admin = Admin.create(common)) {
      NewTopic t = new NewTopic(topic, partitions, (short) 1);
      Map<String, String> configs = new java.util.HashMap<>();
      if (retentionMs != null) configs.put("retention.ms", String.valueOf(retentionMs));
      if (retentionBytes != null) configs.put("retention.bytes", String.valueOf(retentionBytes));
      t.configs(configs);
      admin.createTopics(List.of(t)).all().get(60, TimeUnit.SECONDS);
    }
    Properties pp = new Properties();
    pp.putAll(common);
    pp.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    pp.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    pp.put(ProducerConfig.LINGER_MS_CONFIG, "0");
    // acks=all keeps the producer idempotent (the default), so each partition's records land in
    // the order sent, batch after batch.
    pp.put(ProducerConfig.ACKS_CONFIG, "all");
    KafkaProducer<String, String> producer = new KafkaProducer<>(pp);
    for (Long[] batch : batches) {
      List<Future<RecordMetadata>> sent = new java.util.ArrayList<>();
      for (int p = 0; p < partitions; p++) {
        for (int n = 0; n < batch[1]; n++) {
          boolean backlog = batch[0] == null;
          String key = backlog ? null : "key-" + n;
          String value = backlog ? "backlog-" + n : "at-" + batch[0];
          sent.add(producer.send(new ProducerRecord<>(topic, p, batch[0], key, value)));
        }
      }
      for (Future<RecordMetadata> f : sent) f.get(60, TimeUnit.SECONDS);
    }
    if (once) {
      producer.close(Duration.ofSeconds(5));
      System.out.println("DONE");
      System.out.flush();
      return;
    }

    final String name = topic;
    CountDownLatch committed = new CountDownLatch(consumers.size());
    final int count = partitions;
    final long everyMs = produce > 0 ? Math.round(1000 / produce) : 0;
    Thread producing = new Thread(() -> {
      long next = System.currentTimeMillis();
      int n = 0;
      while (!stopping.get() && everyMs > 0) {
        producer.send(new ProducerRecord<>(name, n % count, null, "live-" + n));
        n++;
        next += everyMs;
        long wait = next - System.currentTimeMillis();
        if (wait > 0) sleep(wait);
      }
    });
    producing.start();
    List<Thread> threads = new java.util.ArrayList<>();
    // A consumer joins a group another consumer of the rig reads only once that one has committed:
    // a consumer-protocol member whose first heartbeat meets a classic group still mid-join gets
    // UNKNOWN_SERVER_ERROR from Kafka 4.4's group conversion (NoSuchElementException in
    // ConsumerGroup.fromClassicGroup) and is fenced for good.
    Map<String, CountDownLatch> firstCommit = new java.util.HashMap<>();
    for (String[] c : consumers) {
      final String group = c[0];
      final long pauseMs = Math.round(1000 / Double.parseDouble(c[1]));
      final String protocol = c[2];
      CountDownLatch earlier = firstCommit.get(group);
      if (earlier != null) earlier.await();
      CountDownLatch first = new CountDownLatch(1);
      firstCommit.put(group, first);
      Thread thread = new Thread(() -> consume(common, name, group, pauseMs, protocol, committed, first));
      thread.start();
      threads.add(thread);
    }
    committed.await();
    System.out.println("READY");
    System.out.flush();
    while (System.in.read() != -1) {
      // runs until standard input closes
    }
    stopping.set(true);
    producing.join();
    for (Thread t : threads) t.join();
    producer.close(Duration.ofSeconds(5));
  }

  static void consume(
      Properties common, String topic, String group, long pauseMs, String protocol, CountDownLatch committed, CountDownLatch first) {
    Properties cp = new Properties();
    cp.putAll(common);
    cp.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    cp.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, protocol);
    cp.put(ConsumerConfig.CLIENT_ID_CONFIG, group + "-client");
    cp.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    cp.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    cp.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "1");
    cp.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    cp.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    boolean counted = false;
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(cp)) {
      consumer.subscribe(List.of(topic));
      while (!stopping.get()) {
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
          sleep(pauseMs);
          consumer.commitSync(Map.of(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1)));
          if (!counted) {
            counted = true;
            committed.countDown();
            first.countDown();
          }
        }
      }
    }
  }

  static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

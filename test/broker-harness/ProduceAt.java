/*
 * ProduceAt: creates a topic and fills every partition with records of given timestamps, with Kafka's
 * own Admin client and producer. Test-only: resets by time need records whose times are known.
 *
 *   java -cp 'CLIENTS_LIB/*' test/broker-harness/ProduceAt.java --bootstrap HOST:PORT --topic TOPIC PARTITIONS \
 *        --batch TIMESTAMP_MS COUNT [--batch ...]
 *
 * Each batch, in the order given, appends COUNT records with record time TIMESTAMP_MS to every
 * partition (CreateTime, the topic default). Prints DONE once every record is acknowledged;
 * "ERROR ..." on standard error and exit 1 otherwise.
 */

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

public class ProduceAt {
  public static void main(String[] argv) {
    try {
      run(argv);
      System.out.println("DONE");
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
    List<long[]> batches = new ArrayList<>();
    for (int i = 0; i < argv.length; i++) {
      switch (argv[i]) {
        case "--bootstrap" -> bootstrap = argv[++i];
        case "--topic" -> {
          topic = argv[++i];
          partitions = Integer.parseInt(argv[++i]);
        }
        case "--batch" -> batches.add(new long[] {Long.parseLong(argv[++i]), Long.parseLong(argv[++i])});
        default -> throw new IllegalArgumentException("unknown argument " + argv[i]);
      }
    }
    if (bootstrap == null || topic == null || batches.isEmpty())
      throw new IllegalArgumentException("--bootstrap, --topic and at least one --batch are required");

    Properties a = new Properties();
    a.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    try (Admin admin = Admin.create(a)) {
      admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(60, TimeUnit.SECONDS);
    }

    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    // One in flight: the records of a partition land in the order sent, batch after batch.
    p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
      for (long[] batch : batches) {
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        for (int partition = 0; partition < partitions; partition++) {
          for (int n = 0; n < batch[1]; n++) {
            sent.add(producer.send(new ProducerRecord<>(topic, partition, batch[0], "key-" + n, "at-" + batch[0])));
          }
        }
        for (Future<RecordMetadata> f : sent) f.get(60, TimeUnit.SECONDS);
      }
    }
  }
}

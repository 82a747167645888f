/*
 * GroupAdmin: what the cluster's feature levels and a group's configs are, as Kafka's own Java Admin
 * client reads them. Test-only; one run, one operation, then exit.
 *
 *   java -cp 'CLIENTS_LIB/*' test/broker-harness/GroupAdmin.java --bootstrap HOST:PORT OPERATION ARGS...
 *
 * OPERATION:
 *
 *   features                 Admin.describeFeatures, one line a finalized feature:
 *                              FINALIZED <name> <min level> <max level>
 *                            then EPOCH <epoch or -1>
 *   streams-topology GROUP   Admin.describeStreamsGroups with includeTopologyDescription:
 *                              STATUS <StreamsGroupTopologyDescriptionStatus>
 *                              NODE <subtopology id> <source|processor|sink> <name> <topics> <sink topic> <stores> <successors>
 *                              GLOBAL <source name> <its topics> <processor name> <its stores>
 *                            each list comma-separated and sorted, '-' when empty or absent
 *   set-config GROUP NAME VALUE
 *                            Admin.incrementalAlterConfigs: SET NAME to VALUE on the GROUP resource
 *   describe-configs GROUP   Admin.describeConfigs on ConfigResource.Type.GROUP, one line a config:
 *                              CONFIG <name> <source> <sensitive> <read-only> <value, UTF-8 then base64, or '-' when null>
 *
 * Standard output ends with DONE. Errors: "ERROR ..." on standard error, exit 1 (2 on bad arguments).
 */

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeStreamsGroupsOptions;
import org.apache.kafka.clients.admin.StreamsGroupDescription;
import org.apache.kafka.clients.admin.StreamsGroupTopologyDescription;
import org.apache.kafka.clients.admin.FeatureMetadata;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.common.config.ConfigResource;

public class GroupAdmin {
  static final PrintStream OUT =
      new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
  static final PrintStream ERR =
      new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);

  public static void main(String[] argv) {
    int code = run(argv, OUT, ERR);
    OUT.flush();
    System.exit(code);
  }

  /** One run with its output on `out` and `err`, and its exit code: main's, and ProgramServer's. */
  public static int run(String[] argv, PrintStream out, PrintStream err) {
    if (argv.length < 3 || !argv[0].equals("--bootstrap")) {
      err.println("ERROR usage: GroupAdmin --bootstrap HOST:PORT features | describe-configs GROUP");
      return 2;
    }
    try {
      operate(argv[1], argv[2], List.of(argv).subList(3, argv.length), out);
      out.println("DONE");
      return 0;
    } catch (IllegalArgumentException e) {
      err.println("ERROR " + e.getMessage());
      return 2;
    } catch (Throwable e) {
      Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
      err.println("ERROR " + cause.getClass().getName() + ": " + cause.getMessage());
      return 1;
    }
  }

  static void operate(String bootstrap, String operation, List<String> args, PrintStream out) throws Exception {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(AdminClientConfig.CLIENT_ID_CONFIG, "group-admin");
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
    try (Admin admin = Admin.create(p)) {
      switch (operation) {
        case "features" -> {
          FeatureMetadata m = admin.describeFeatures().featureMetadata().get();
          for (Map.Entry<String, FinalizedVersionRange> e : m.finalizedFeatures().entrySet()) {
            out.println("FINALIZED " + e.getKey() + " " + e.getValue().minVersionLevel() + " "
                + e.getValue().maxVersionLevel());
          }
          out.println("EPOCH " + m.finalizedFeaturesEpoch().orElse(-1L));
        }
        case "describe-configs" -> {
          if (args.size() != 1) throw new IllegalArgumentException("describe-configs GROUP");
          ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, args.get(0));
          Config config = admin.describeConfigs(List.of(group)).all().get().get(group);
          for (ConfigEntry e : config.entries()) {
            String value = e.value() == null
                ? "-"
                : Base64.getEncoder().encodeToString(e.value().getBytes(StandardCharsets.UTF_8));
            out.println("CONFIG " + e.name() + " " + e.source() + " " + e.isSensitive() + " "
                + e.isReadOnly() + " " + value);
          }
        }
        case "streams-topology" -> {
          if (args.size() != 1) throw new IllegalArgumentException("streams-topology GROUP");
          StreamsGroupDescription d = admin
              .describeStreamsGroups(List.of(args.get(0)), new DescribeStreamsGroupsOptions().includeTopologyDescription(true))
              .describedGroups().get(args.get(0)).get();
          out.println("STATUS " + d.topologyDescriptionStatus());
          d.topologyDescription().ifPresent(t -> {
            for (StreamsGroupTopologyDescription.Subtopology s : t.subtopologies())
              for (StreamsGroupTopologyDescription.Node n : s.nodes()) out.println("NODE " + s.id() + " " + node(n));
            for (StreamsGroupTopologyDescription.GlobalStore g : t.globalStores())
              out.println("GLOBAL " + g.source().name() + " " + list(g.source().topics()) + " "
                  + g.processor().name() + " " + list(g.processor().stores()));
          });
        }
        case "set-config" -> {
          if (args.size() != 3) throw new IllegalArgumentException("set-config GROUP NAME VALUE");
          ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, args.get(0));
          AlterConfigOp op = new AlterConfigOp(new ConfigEntry(args.get(1), args.get(2)), AlterConfigOp.OpType.SET);
          admin.incrementalAlterConfigs(Map.of(group, List.of(op))).all().get();
          // The broker answers describeConfigs from its copy of the metadata log, which can lag the
          // controller that took the change: done once the broker shows it.
          long until = System.nanoTime() + 30_000_000_000L;
          for (;;) {
            ConfigEntry e = admin.describeConfigs(List.of(group)).all().get().get(group).get(args.get(1));
            if (e != null && args.get(2).equals(e.value())) break;
            if (System.nanoTime() > until)
              throw new IllegalStateException("the broker never showed " + args.get(1) + "=" + args.get(2));
            Thread.sleep(50);
          }
        }
        default -> throw new IllegalArgumentException("unknown operation " + operation);
      }
    }
  }

  static String list(Collection<String> items) {
    return items == null || items.isEmpty() ? "-" : String.join(",", items.stream().sorted().toList());
  }

  static String node(StreamsGroupTopologyDescription.Node n) {
    String type = "processor", topics = "-", sink = "-", stores = "-";
    if (n instanceof StreamsGroupTopologyDescription.Source src) {
      type = "source";
      topics = list(src.topics());
    } else if (n instanceof StreamsGroupTopologyDescription.Sink snk) {
      type = "sink";
      sink = snk.topic().orElse("-");
    } else if (n instanceof StreamsGroupTopologyDescription.Processor p) {
      stores = list(p.stores());
    }
    return type + " " + n.name() + " " + topics + " " + sink + " " + stores + " " + list(n.successors());
  }
}

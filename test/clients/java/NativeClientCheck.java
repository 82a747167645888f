/*
 * NativeClientCheck: drives the Java client OpenAPI Generator made from the live /openapi.json (library
 * native: java.net.http and Jackson) against the running API, and prints what it read, one fact a
 * line, for test/integration/java-client.test.ts to compare with what it knows of the groups.
 *
 * The compiler is part of the check: offsets and lag are read into `Long` (a document that lost
 * `format: int64` generates `Integer` and this file stops compiling), groups are narrowed with
 * `instanceof` on the generated oneOf variants, batch outcomes on the named BatchDescribeFound /
 * BatchDescribeFailed variants, and problems are read as the generated `Problem` type.
 *
 *   java -cp 'CLIENT_CLASSES:CLIENT_LIB/*' test/clients/java/NativeClientCheck.java \
 *        --base URL --prefix P --group TYPE ID [--group TYPE ID ...] --big ID --missing ID --mismatch ID TYPE \
 *        --health ID
 *
 * Output lines (fields separated by single spaces; ids hold no spaces):
 *   LIST <groupId> <type> <lag or ->                    GET /groups?prefix=P&include=lag
 *   PAGE <groupId>, then PAGES <n>                      GET /groups?prefix=P&limit=2, following nextCursor
 *   MEMBER <type> <groupId> <instanceId> <rack> <topic>:<partitions>:<topicId> <type-specific fact>
 *   OFFSET <groupId> <topic> <partition> <offset>       GET /groups/{big}/offsets
 *   BATCH found <groupId> <type> | BATCH failed <groupId> <problem type> <status>
 *   MISMATCH <http status> <problem type> <expectedType> <actualType>
 *   NOTFOUND <http status> <problem type> <groupId>    GET /groups/{missing}
 *   HEALTH <groupId> <type> <verdict> <partitions>     GET /groups/{health}/health
 *   DONE
 */

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.kgr.client.ApiClient;
import org.kgr.client.ApiException;
import org.kgr.client.api.GroupsApi;
import org.kgr.client.api.OffsetsApi;
import org.kgr.client.model.BatchDescribeFailed;
import org.kgr.client.model.BatchDescribeFound;
import org.kgr.client.model.BatchDescribeOutcome;
import org.kgr.client.model.BatchDescribeRequest;
import org.kgr.client.model.BatchDescribeResult;
import org.kgr.client.model.ClassicGroup;
import org.kgr.client.model.ClassicMember;
import org.kgr.client.model.ConsumerGroup;
import org.kgr.client.model.ConsumerMember;
import org.kgr.client.model.Group;
import org.kgr.client.model.GroupHealth;
import org.kgr.client.model.GroupOffsets;
import org.kgr.client.model.GroupPage;
import org.kgr.client.model.GroupPageEntry;
import org.kgr.client.model.PartitionOffsets;
import org.kgr.client.model.Problem;
import org.kgr.client.model.ShareGroup;
import org.kgr.client.model.ShareMember;
import org.kgr.client.model.StreamsGroup;
import org.kgr.client.model.StreamsMember;
import org.kgr.client.model.TopicOffsets;
import org.kgr.client.model.TopicPartitions;

public class NativeClientCheck {
  public static void main(String[] argv) throws Exception {
    String base = null, prefix = null, big = null, missing = null, mismatchId = null, mismatchType = null;
    String healthId = null;
    List<String[]> groups = new ArrayList<>();
    for (int i = 0; i < argv.length; i++) {
      switch (argv[i]) {
        case "--base" -> base = argv[++i];
        case "--prefix" -> prefix = argv[++i];
        case "--group" -> groups.add(new String[] {argv[++i], argv[++i]});
        case "--big" -> big = argv[++i];
        case "--missing" -> missing = argv[++i];
        case "--health" -> healthId = argv[++i];
        case "--mismatch" -> {
          mismatchId = argv[++i];
          mismatchType = argv[++i];
        }
        default -> throw new IllegalArgumentException("unknown argument " + argv[i]);
      }
    }
    ApiClient client = new ApiClient();
    client.updateBaseUri(base);
    GroupsApi groupsApi = new GroupsApi(client);
    OffsetsApi offsetsApi = new OffsetsApi(client);

    // `limit` is an Integer parameter: a document with a string limit does not compile here.
    Integer limit = 1000;
    GroupPage page = groupsApi.listGroups(null, null, prefix, null, limit, null, List.of("lag"), null, null, null, null, null, null, null, null, null);
    for (GroupPageEntry entry : page.getGroups()) {
      Long lag = entry.getLag() == null ? null : entry.getLag().getLag();
      System.out.println("LIST " + entry.getGroupId() + " " + entry.getType() + " " + (lag == null ? "-" : lag));
    }

    // Pages of two, each cursor handed back as it came, to the last page.
    String cursor = null;
    int pages = 0;
    do {
      GroupPage next = groupsApi.listGroups(null, null, prefix, null, 2, cursor, null, null, null, null, null, null, null, null, null, null);
      for (GroupPageEntry entry : next.getGroups()) System.out.println("PAGE " + entry.getGroupId());
      cursor = next.getNextCursor();
      pages++;
    } while (cursor != null && pages < 100);
    System.out.println("PAGES " + pages);

    for (String[] g : groups) {
      Group group = groupsApi.getGroup(g[1], g[0], null);
      for (String line : members(group)) System.out.println(line);
    }

    GroupOffsets offsets = offsetsApi.getGroupOffsets(big, null, null, null);
    for (TopicOffsets topic : offsets.getTopics()) {
      for (PartitionOffsets p : topic.getPartitions()) {
        Long offset = p.getOffset();
        Integer partition = p.getPartition();
        System.out.println("OFFSET " + offsets.getGroupId() + " " + topic.getTopic() + " " + partition + " " + offset);
      }
    }

    List<String> ids = new ArrayList<>();
    for (String[] g : groups) ids.add(g[1]);
    ids.add(missing);
    BatchDescribeResult batch = groupsApi.describeGroups(new BatchDescribeRequest().groupIds(ids));
    for (BatchDescribeOutcome outcome : batch.getResults()) {
      Object actual = outcome.getActualInstance();
      if (actual instanceof BatchDescribeFound found) {
        System.out.println("BATCH found " + found.getGroupId() + " " + typeOf(found.getGroup()));
      } else if (actual instanceof BatchDescribeFailed failed) {
        Problem problem = failed.getProblem();
        System.out.println("BATCH failed " + failed.getGroupId() + " " + problem.getType() + " " + problem.getStatus());
      } else {
        throw new IllegalStateException("an outcome of no known variant: " + actual);
      }
    }

    try {
      groupsApi.getGroup(mismatchId, mismatchType, null);
      System.out.println("MISMATCH 200 - - -");
    } catch (ApiException e) {
      Problem problem = client.getObjectMapper().readValue(e.getResponseBody(), Problem.class);
      System.out.println("MISMATCH " + e.getCode() + " " + problem.getType() + " " + problem.getExpectedType() + " "
          + problem.getActualType());
    }
    try {
      groupsApi.getGroup(missing, null, null);
      System.out.println("NOTFOUND 200 - -");
    } catch (ApiException e) {
      Problem problem = client.getObjectMapper().readValue(e.getResponseBody(), Problem.class);
      System.out.println("NOTFOUND " + e.getCode() + " " + problem.getType() + " " + problem.getGroupId());
    }

    GroupHealth health = offsetsApi.getGroupHealth(healthId, null, null, null, null, null, null);
    System.out.println("HEALTH " + health.getGroupId() + " " + health.getType() + " " + health.getVerdict() + " "
        + health.getPartitions().size());
    System.out.println("DONE");
  }

  static String typeOf(Group group) {
    Object g = group.getActualInstance();
    if (g instanceof ClassicGroup c) return c.getType().toString();
    if (g instanceof ConsumerGroup c) return c.getType().toString();
    if (g instanceof ShareGroup s) return s.getType().toString();
    if (g instanceof StreamsGroup s) return s.getType().toString();
    throw new IllegalStateException("a group of no known type: " + g);
  }

  /** One MEMBER line per member: the core fields every type shares, then one fact only its type has. */
  static List<String> members(Group group) {
    List<String> out = new ArrayList<>();
    Object g = group.getActualInstance();
    if (g instanceof ClassicGroup c) {
      for (ClassicMember m : c.getMembers()) {
        String own = "assignor=" + c.getAssignor() + ",assignmentVersion="
            + (m.getConsumerProtocol() == null || m.getConsumerProtocol().getAssignment() == null
                ? "-"
                : m.getConsumerProtocol().getAssignment().getVersion());
        out.add(line("classic", c.getGroupId(), m.getInstanceId(), m.getRack(), m.getPartitions(), own));
      }
    } else if (g instanceof ConsumerGroup c) {
      for (ConsumerMember m : c.getMembers()) {
        Integer epoch = m.getMemberEpoch();
        out.add(line("consumer", c.getGroupId(), m.getInstanceId(), m.getRack(), m.getPartitions(), "memberEpoch=" + epoch));
      }
    } else if (g instanceof ShareGroup s) {
      for (ShareMember m : s.getMembers()) {
        out.add(line("share", s.getGroupId(), m.getInstanceId(), m.getRack(), m.getPartitions(),
            "subscribed=" + String.join(",", m.getSubscribedTopicNames())));
      }
    } else if (g instanceof StreamsGroup s) {
      for (StreamsMember m : s.getMembers()) {
        out.add(line("streams", s.getGroupId(), m.getInstanceId(), m.getRack(), m.getPartitions(),
            "activeTasks=" + m.getTasks().getActiveTasks().size()));
      }
    } else {
      throw new IllegalStateException("a group of no known type: " + g);
    }
    return out;
  }

  static String line(String type, String groupId, String instanceId, String rack, List<TopicPartitions> held, String own) {
    String partitions = held.stream()
        .map((tp) -> tp.getTopic() + ":" + tp.getPartitions().stream().map(String::valueOf).collect(Collectors.joining(","))
            + ":" + (tp.getTopicId() == null ? "null" : "id"))
        .collect(Collectors.joining(";"));
    return "MEMBER " + type + " " + groupId + " " + instanceId + " " + rack + " " + partitions + " " + own;
  }
}

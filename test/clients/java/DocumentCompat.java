import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.openapitools.openapidiff.core.OpenApiCompare;
import org.openapitools.openapidiff.core.compare.OpenApiDiffOptions;
import org.openapitools.openapidiff.core.model.ChangedOpenApi;
import org.openapitools.openapidiff.core.model.ChangedOperation;
import org.openapitools.openapidiff.core.model.Endpoint;
import org.openapitools.openapidiff.core.output.MarkdownRender;

/**
 * What a change to the OpenAPI document breaks for the clients generated from an earlier one, as
 * OpenAPITools' openapi-diff judges it:
 *
 *   java DocumentCompat <released.json> <current.json> [<another.json> ...]
 *
 * prints, for each document after the first (under "== <file>" when there are several), one line
 * per breaking change ("removed GET /x", "breaks GET /x: parameters, response"), then
 * "breaking: N", then the diff of the breaking operations as Markdown, indented.
 *
 * One rule of the tool is off, as docs/api.md ("What 1.x promises") says: a response's enum may
 * gain values within a major version (a new problem type, a group state Kafka adds), and generated
 * clients are told to accept values they do not know.
 */
public class DocumentCompat {
  public static void main(String[] args) throws Exception {
    OpenApiDiffOptions options =
        OpenApiDiffOptions.builder().configProperty("incompatible.response.enum.increased", "false").build();
    String released = Files.readString(Path.of(args[0]));
    for (int i = 1; i < args.length; i++) {
      if (args.length > 2) System.out.println("== " + args[i]);
      report(OpenApiCompare.fromContents(released, Files.readString(Path.of(args[i])), null, options));
    }
  }

  static void report(ChangedOpenApi diff) throws Exception {
    List<String> lines = new ArrayList<>();
    for (Endpoint endpoint : diff.getMissingEndpoints()) {
      lines.add("removed " + endpoint.getMethod() + " " + endpoint.getPathUrl());
    }
    for (ChangedOperation operation : diff.getChangedOperations()) {
      if (!operation.isChanged().isIncompatible()) continue;
      List<String> parts = new ArrayList<>();
      if (operation.getOperationId() != null && operation.getOperationId().isChanged().isIncompatible()) parts.add("operationId");
      if (operation.getParameters() != null && operation.getParameters().isChanged().isIncompatible()) parts.add("parameters");
      if (operation.resultRequestBody().isIncompatible()) parts.add("request body");
      if (operation.resultApiResponses().isIncompatible()) parts.add("response");
      if (operation.resultSecurityRequirements().isIncompatible()) parts.add("security");
      lines.add("breaks " + operation.getHttpMethod() + " " + operation.getPathUrl() + ": " + String.join(", ", parts));
    }
    lines.forEach(System.out::println);
    System.out.println("breaking: " + lines.size());
    if (!lines.isEmpty()) {
      java.io.ByteArrayOutputStream markdown = new java.io.ByteArrayOutputStream();
      try (java.io.OutputStreamWriter out = new java.io.OutputStreamWriter(markdown, java.nio.charset.StandardCharsets.UTF_8)) {
        new MarkdownRender().render(diff, out);
      }
      // Indented, so no line of the account reads as a verdict.
      for (String line : markdown.toString(java.nio.charset.StandardCharsets.UTF_8).split("\n")) System.out.println("  " + line);
    }
  }
}

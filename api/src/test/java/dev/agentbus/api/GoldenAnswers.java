package dev.agentbus.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.Json;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** The expected answers, as files under src/test/resources/answers: what docs/api.md promises, field for field. */
final class GoldenAnswers {
    private GoldenAnswers() {
    }

    /** The file's text: the answer pretty-printed, fields in the order they are sent. */
    static String load(String name) throws IOException {
        try (InputStream in = GoldenAnswers.class.getResourceAsStream("/answers/" + name)) {
            if (in == null) {
                throw new IOException("no golden answer " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** What the gateway sends, pretty-printed like the files, so a difference shows as lines. */
    static String pretty(String wireJson) throws IOException {
        JsonNode tree = Json.mapper().readTree(wireJson);
        return Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(tree) + "\n";
    }
}

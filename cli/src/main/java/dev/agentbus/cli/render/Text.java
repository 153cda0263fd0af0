package dev.agentbus.cli.render;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.Json;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/** Small text helpers shared by the renderers: shortening, first lines, compact JSON, times. */
public final class Text {
    private static final DateTimeFormatter LOCAL_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private Text() {
    }

    /** On one line (newlines and runs of whitespace become one space), at most max characters, "…" if cut. */
    public static String oneLine(String s, int max) {
        if (s == null) {
            return "";
        }
        String flat = s.replaceAll("\\s+", " ").strip();
        return flat.length() <= max ? flat : flat.substring(0, Math.max(0, max - 1)) + "…";
    }

    /** A line cut to max characters, keeping its leading indentation (it matters in command output). */
    public static String cut(String s, int max) {
        String noTabs = s.replace("\t", "    ").stripTrailing();
        return noTabs.length() <= max ? noTabs : noTabs.substring(0, Math.max(0, max - 1)) + "…";
    }

    /** The lines of s, without trailing blank lines. */
    public static List<String> lines(String s) {
        List<String> lines = new ArrayList<>(s == null ? List.of() : s.lines().toList());
        while (!lines.isEmpty() && lines.get(lines.size() - 1).isBlank()) {
            lines.remove(lines.size() - 1);
        }
        return lines;
    }

    /** Tool arguments as one compact line: re-serialized when they are JSON, so pretty-printed args stay short. */
    public static String compactJson(String raw, int max) {
        if (raw == null || raw.isBlank()) {
            return "";
        }
        String compact;
        try {
            JsonNode node = Json.mapper().readTree(raw);
            compact = node == null ? raw : node.toString();
        } catch (Exception notJson) {
            compact = raw;
        }
        return oneLine(compact, max);
    }

    /** A time for people: local, to the second. */
    public static String localTime(Instant instant) {
        return instant == null ? "-" : LOCAL_TIME.format(instant.atZone(ZoneId.systemDefault()));
    }

    /** A text field of a JSON object, or null when absent or null. */
    public static String text(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    public static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }
}

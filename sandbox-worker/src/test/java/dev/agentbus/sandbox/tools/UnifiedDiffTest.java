package dev.agentbus.sandbox.tools;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class UnifiedDiffTest {
    private static final Pattern HUNK = Pattern.compile("@@ -(\\d+)(?:,(\\d+))? \\+(\\d+)(?:,(\\d+))? @@");

    @Test
    void identical_texts_have_an_empty_diff() {
        assertThat(UnifiedDiff.of("a\nb\n", "a\nb\n", "f").text()).isEmpty();
    }

    @Test
    void distant_changes_get_separate_hunks_and_near_ones_share_one() {
        String before = lines(1, 30);
        String after = before.replace("line 2\n", "LINE 2\n").replace("line 25\n", "LINE 25\n")
                .replace("line 29\n", "");

        UnifiedDiff.Result diff = UnifiedDiff.of(before, after, "f.txt");

        assertThat(diff.text()).startsWith("--- a/f.txt\n+++ b/f.txt\n@@ -1,5 +1,5 @@\n line 1\n-line 2\n+LINE 2\n")
                .contains("@@ -22,9 +22,8 @@\n");
        assertThat(diff.added()).isEqualTo(2);
        assertThat(diff.removed()).isEqualTo(3);
        assertThat(apply(before, diff.text())).isEqualTo(after);
    }

    @Test
    void a_new_file_is_diffed_against_dev_null_and_deleting_everything_works() {
        assertThat(UnifiedDiff.of(null, "x\ny\n", "n.txt").text())
                .isEqualTo("--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n");
        assertThat(UnifiedDiff.of("x\ny\n", "", "n.txt").text())
                .isEqualTo("--- a/n.txt\n+++ b/n.txt\n@@ -1,2 +0,0 @@\n-x\n-y\n");
    }

    @Test
    void random_edits_produce_diffs_that_apply_back_to_the_new_text() {
        Random random = new Random(42);
        for (int round = 0; round < 500; round++) {
            String before = randomText(random);
            String after = mutate(before, random);

            String diff = UnifiedDiff.of(before, after, "r").text();

            assertThat(apply(before, diff)).as("round %d:\n%s\n->\n%s\n%s", round, before, after, diff)
                    .isEqualTo(after);
        }
    }

    @Test
    void the_diff_is_minimal_for_a_simple_insertion_in_a_big_file() {
        String before = lines(1, 20000);
        String after = before.replace("line 10000\n", "line 10000\ninserted\n");

        UnifiedDiff.Result diff = UnifiedDiff.of(before, after, "big");

        assertThat(diff.added()).isEqualTo(1);
        assertThat(diff.removed()).isZero();
        assertThat(diff.text()).contains("@@ -9998,6 +9998,7 @@");
    }

    @Test
    void very_different_files_fall_back_to_one_replaced_block_which_still_applies() {
        StringBuilder a = new StringBuilder();
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 5000; i++) {
            a.append("a").append(i).append('\n');
            b.append("b").append(i).append('\n');
        }

        String diff = UnifiedDiff.of(a.toString(), b.toString(), "x").text();

        assertThat(apply(a.toString(), diff)).isEqualTo(b.toString());
    }

    private static String lines(int from, int to) {
        StringBuilder out = new StringBuilder();
        for (int i = from; i <= to; i++) {
            out.append("line ").append(i).append('\n');
        }
        return out.toString();
    }

    private static String randomText(Random random) {
        StringBuilder out = new StringBuilder();
        int count = random.nextInt(25);
        for (int i = 0; i < count; i++) {
            out.append((char) ('a' + random.nextInt(4))).append('\n');
        }
        if (random.nextInt(4) == 0) {
            out.append("tail-without-newline");
        }
        return out.toString();
    }

    private static String mutate(String text, Random random) {
        List<String> lines = new ArrayList<>(UnifiedDiff.splitLines(text));
        int edits = random.nextInt(6);
        for (int i = 0; i < edits; i++) {
            int at = lines.isEmpty() ? 0 : random.nextInt(lines.size());
            switch (random.nextInt(3)) {
                case 0 -> lines.add(Math.min(at, lines.size()), (char) ('a' + random.nextInt(6)) + "\n");
                case 1 -> {
                    if (!lines.isEmpty()) {
                        lines.remove(at);
                    }
                }
                default -> {
                    if (!lines.isEmpty()) {
                        lines.set(at, "changed\n");
                    }
                }
            }
        }
        if (random.nextInt(5) == 0) {
            lines.add("new tail");
        }
        // A line without newline may only be last; fix any that moved up.
        List<String> fixed = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            fixed.add(i < lines.size() - 1 && !line.endsWith("\n") ? line + "\n" : line);
        }
        return String.join("", fixed);
    }

    /** A strict little {@code patch}: checks context and removed lines, so a wrong diff cannot pass. */
    static String apply(String before, String diff) {
        if (diff.isEmpty()) {
            return before;
        }
        List<String> old = UnifiedDiff.splitLines(before);
        List<String> diffLines = UnifiedDiff.splitLines(diff);
        List<String> out = new ArrayList<>();
        int oldIndex = 0;
        int i = 2; // skip ---/+++
        while (i < diffLines.size()) {
            Matcher header = HUNK.matcher(diffLines.get(i));
            assertThat(header.lookingAt()).as("hunk header: " + diffLines.get(i)).isTrue();
            int oldStart = Integer.parseInt(header.group(1));
            int oldCount = header.group(2) == null ? 1 : Integer.parseInt(header.group(2));
            int firstOld = oldCount == 0 ? oldStart : oldStart - 1;
            while (oldIndex < firstOld) {
                out.add(old.get(oldIndex++));
            }
            i++;
            int seenOld = 0;
            while (i < diffLines.size() && !diffLines.get(i).startsWith("@@")) {
                String line = diffLines.get(i);
                String body = line.substring(1);
                boolean noNewline = i + 1 < diffLines.size() && diffLines.get(i + 1).startsWith("\\ ");
                if (noNewline) {
                    body = body.substring(0, body.length() - 1);
                }
                switch (line.charAt(0)) {
                    case ' ' -> {
                        assertThat(old.get(oldIndex)).isEqualTo(body);
                        out.add(old.get(oldIndex++));
                        seenOld++;
                    }
                    case '-' -> {
                        assertThat(old.get(oldIndex)).isEqualTo(body);
                        oldIndex++;
                        seenOld++;
                    }
                    case '+' -> out.add(body);
                    default -> throw new AssertionError("unexpected diff line: " + line);
                }
                i += noNewline ? 2 : 1;
            }
            assertThat(seenOld).isEqualTo(oldCount);
        }
        while (oldIndex < old.size()) {
            out.add(old.get(oldIndex++));
        }
        return String.join("", out);
    }
}

package dev.agentbus.sandbox.tools;

import java.util.ArrayList;
import java.util.List;

/**
 * Line-based unified diff ({@code ---}/{@code +++}/{@code @@} hunks with context), as shown to users for edits and
 * accepted by {@code patch}.
 *
 * <p>The edit script is Myers' O((N+M)·D) shortest edit script, computed only on the part between the common
 * prefix and suffix: an agent's edit usually touches a few lines of a large file, so that part is small. Memory is
 * O(D²) for the saved frontiers; if the files differ in more than {@link #MAX_EDIT_DISTANCE} lines the middle is
 * reported as one replaced block instead, which is still a correct diff, just not a minimal one.
 *
 * <p>Lines are compared with their line terminator, so a change of only the final newline is a change, reported
 * with the standard {@code \ No newline at end of file} marker.
 */
final class UnifiedDiff {
    static final int CONTEXT_LINES = 3;
    private static final int MAX_EDIT_DISTANCE = 4000;

    /** The diff text (empty when nothing changed) and how many lines it adds and removes. */
    record Result(String text, int added, int removed) {
    }

    private enum Kind { SAME, DELETE, INSERT }

    /** One line of the edit script; {@code oldPos}/{@code newPos} count the old/new lines before it. */
    private record Op(Kind kind, String line, int oldPos, int newPos) {
    }

    private UnifiedDiff() {
    }

    /**
     * Diffs {@code before} against {@code after}. {@code before == null} means the file did not exist, which is
     * shown as {@code --- /dev/null} like git does; {@code after == null} means it was deleted ({@code +++ /dev/null}).
     */
    static Result of(String before, String after, String path) {
        List<String> a = splitLines(before == null ? "" : before);
        List<String> b = splitLines(after == null ? "" : after);
        List<Op> ops = editScript(a, b);
        int added = 0;
        int removed = 0;
        for (Op op : ops) {
            if (op.kind == Kind.INSERT) {
                added++;
            } else if (op.kind == Kind.DELETE) {
                removed++;
            }
        }
        if (added == 0 && removed == 0) {
            return new Result("", 0, 0);
        }
        StringBuilder out = new StringBuilder();
        out.append(before == null ? "--- /dev/null\n" : "--- a/" + path + "\n")
                .append(after == null ? "+++ /dev/null\n" : "+++ b/" + path + "\n");
        appendHunks(ops, out);
        return new Result(out.toString(), added, removed);
    }

    /** Splits after each {@code \n}, keeping it; a last line without one is kept as is. */
    static List<String> splitLines(String text) {
        List<String> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                lines.add(text.substring(start, i + 1));
                start = i + 1;
            }
        }
        if (start < text.length()) {
            lines.add(text.substring(start));
        }
        return lines;
    }

    private static List<Op> editScript(List<String> a, List<String> b) {
        int prefix = 0;
        while (prefix < a.size() && prefix < b.size() && a.get(prefix).equals(b.get(prefix))) {
            prefix++;
        }
        int suffix = 0;
        while (suffix < a.size() - prefix && suffix < b.size() - prefix
                && a.get(a.size() - 1 - suffix).equals(b.get(b.size() - 1 - suffix))) {
            suffix++;
        }
        List<String> midA = a.subList(prefix, a.size() - suffix);
        List<String> midB = b.subList(prefix, b.size() - suffix);
        List<Kind> middle = myers(midA, midB);
        if (middle == null) {
            middle = new ArrayList<>();
            for (int i = 0; i < midA.size(); i++) {
                middle.add(Kind.DELETE);
            }
            for (int i = 0; i < midB.size(); i++) {
                middle.add(Kind.INSERT);
            }
        }
        List<Op> ops = new ArrayList<>(a.size() + midB.size());
        int x = 0;
        int y = 0;
        for (int i = 0; i < prefix; i++, x++, y++) {
            ops.add(new Op(Kind.SAME, a.get(x), x, y));
        }
        for (Kind kind : middle) {
            switch (kind) {
                case SAME -> ops.add(new Op(kind, a.get(x++), x - 1, y++));
                case DELETE -> ops.add(new Op(kind, a.get(x++), x - 1, y));
                case INSERT -> ops.add(new Op(kind, b.get(y++), x, y - 1));
            }
        }
        while (x < a.size()) {
            ops.add(new Op(Kind.SAME, a.get(x++), x - 1, y++));
        }
        return ops;
    }

    /**
     * Myers' greedy algorithm. {@code trace.get(d)} is the furthest-reaching x on each diagonal k before round d,
     * stored for k in [-d-1, d+1] only, which is what backtracking from round d reads. Returns null when the edit
     * distance exceeds {@link #MAX_EDIT_DISTANCE}.
     */
    private static List<Kind> myers(List<String> a, List<String> b) {
        int n = a.size();
        int m = b.size();
        int max = n + m;
        int offset = max + 1;
        int[] v = new int[2 * max + 3];
        List<int[]> trace = new ArrayList<>();
        for (int d = 0; d <= Math.min(max, MAX_EDIT_DISTANCE); d++) {
            int[] saved = new int[2 * d + 3];
            System.arraycopy(v, offset - d - 1, saved, 0, saved.length);
            trace.add(saved);
            for (int k = -d; k <= d; k += 2) {
                int x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]))
                        ? v[offset + k + 1]
                        : v[offset + k - 1] + 1;
                int y = x - k;
                while (x < n && y < m && a.get(x).equals(b.get(y))) {
                    x++;
                    y++;
                }
                v[offset + k] = x;
                if (x >= n && y >= m) {
                    return backtrack(trace, n, m);
                }
            }
        }
        return null;
    }

    private static List<Kind> backtrack(List<int[]> trace, int n, int m) {
        List<Kind> reversed = new ArrayList<>();
        int x = n;
        int y = m;
        for (int d = trace.size() - 1; d >= 0; d--) {
            int[] v = trace.get(d);
            int base = d + 1; // index of diagonal 0 in the saved slice
            int k = x - y;
            int prevK = (k == -d || (k != d && v[base + k - 1] < v[base + k + 1])) ? k + 1 : k - 1;
            int prevX = v[base + prevK];
            int prevY = prevX - prevK;
            while (x > prevX && y > prevY) {
                reversed.add(Kind.SAME);
                x--;
                y--;
            }
            if (d > 0) {
                reversed.add(x == prevX ? Kind.INSERT : Kind.DELETE);
            }
            x = prevX;
            y = prevY;
        }
        List<Kind> forward = new ArrayList<>(reversed.size());
        for (int i = reversed.size() - 1; i >= 0; i--) {
            forward.add(reversed.get(i));
        }
        return forward;
    }

    /** Groups changes whose gaps are at most 2·context lines into hunks, each with up to 3 lines of context. */
    private static void appendHunks(List<Op> ops, StringBuilder out) {
        int i = 0;
        while (i < ops.size()) {
            if (ops.get(i).kind == Kind.SAME) {
                i++;
                continue;
            }
            int firstChange = i;
            int lastChange = i;
            int j = i + 1;
            while (j < ops.size()) {
                if (ops.get(j).kind != Kind.SAME) {
                    if (j - lastChange - 1 > 2 * CONTEXT_LINES) {
                        break;
                    }
                    lastChange = j;
                }
                j++;
            }
            int from = Math.max(0, firstChange - CONTEXT_LINES);
            int to = Math.min(ops.size() - 1, lastChange + CONTEXT_LINES);
            appendHunk(ops.subList(from, to + 1), out);
            i = lastChange + 1;
        }
    }

    private static void appendHunk(List<Op> hunk, StringBuilder out) {
        int oldCount = 0;
        int newCount = 0;
        for (Op op : hunk) {
            if (op.kind != Kind.INSERT) {
                oldCount++;
            }
            if (op.kind != Kind.DELETE) {
                newCount++;
            }
        }
        Op first = hunk.get(0);
        out.append("@@ -").append(range(first.oldPos, oldCount)).append(" +").append(range(first.newPos, newCount))
                .append(" @@\n");
        for (Op op : hunk) {
            char sign = switch (op.kind) {
                case SAME -> ' ';
                case DELETE -> '-';
                case INSERT -> '+';
            };
            out.append(sign).append(op.line);
            if (!op.line.endsWith("\n")) {
                out.append("\n\\ No newline at end of file\n");
            }
        }
    }

    /** GNU style: "start,count", ",1" omitted, and an empty range names the line before it (0 at the top). */
    private static String range(int linesBefore, int count) {
        if (count == 0) {
            return linesBefore + ",0";
        }
        return count == 1 ? String.valueOf(linesBefore + 1) : (linesBefore + 1) + "," + count;
    }
}

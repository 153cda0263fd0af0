package dev.agentbus.sandbox.shell;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads what dash's {@code export -p} prints: one {@code export NAME='value'} per variable, a value that holds a
 * quote written as {@code 'it'"'"'s'}, newlines kept literally inside the quotes, and {@code export NAME} for a
 * variable exported but never set (skipped: it has no value to carry over). The same reader takes the
 * double-quoted form that bash in POSIX mode prints.
 */
final class ExportList {
    private ExportList() {
    }

    public static Map<String, String> parse(String text) {
        Map<String, String> vars = new LinkedHashMap<>();
        int i = 0;
        int n = text.length();
        while (i < n) {
            if (!text.startsWith("export ", i)) {
                // Not a line we understand: skip it whole.
                i = lineEnd(text, i) + 1;
                continue;
            }
            i += "export ".length();
            int nameStart = i;
            while (i < n && text.charAt(i) != '=' && text.charAt(i) != '\n') {
                i++;
            }
            String name = text.substring(nameStart, i);
            if (i >= n || text.charAt(i) == '\n') {
                i++; // exported but unset
                continue;
            }
            i++; // '='
            StringBuilder value = new StringBuilder();
            while (i < n && text.charAt(i) != '\n') {
                char c = text.charAt(i);
                if (c == '\'') {
                    int close = text.indexOf('\'', i + 1);
                    close = close < 0 ? n : close;
                    value.append(text, i + 1, close);
                    i = close + 1;
                } else if (c == '"') {
                    i++;
                    while (i < n && text.charAt(i) != '"') {
                        char d = text.charAt(i);
                        if (d == '\\' && i + 1 < n && "\\\"$`\n".indexOf(text.charAt(i + 1)) >= 0) {
                            d = text.charAt(++i);
                        }
                        value.append(d);
                        i++;
                    }
                    i++;
                } else if (c == '\\' && i + 1 < n) {
                    value.append(text.charAt(i + 1));
                    i += 2;
                } else {
                    value.append(c);
                    i++;
                }
            }
            i++; // the newline ending the entry
            if (ShellQuoting.isVariableName(name)) {
                vars.put(name, value.toString());
            }
        }
        return vars;
    }

    private static int lineEnd(String text, int from) {
        int end = text.indexOf('\n', from);
        return end < 0 ? text.length() : end;
    }
}

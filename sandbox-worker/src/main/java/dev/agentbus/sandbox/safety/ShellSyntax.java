package dev.agentbus.sandbox.safety;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads a POSIX shell command line well enough to find every simple command in it, with its words (quotes removed)
 * and the files its redirections name, so the safety layer can look at what would run.
 *
 * <p>It understands quoting, escapes, the operators that separate commands ({@code ; & && || | ( )} and newlines),
 * redirections with file-descriptor prefixes, here-documents (whose bodies are data, not commands), comments, and
 * command substitution ({@code $(…)}, backticks, {@code <(…)}), whose inner command lines are read as commands of
 * their own. It does not expand variables, globs or aliases: a word that uses {@code $VAR} keeps it literally. That
 * is enough for a second line of defence; the sandbox is the first.
 */
final class ShellSyntax {
    /** Nesting deeper than this (substitutions in substitutions, {@code sh -c} in {@code sh -c}) is not checked. */
    static final int MAX_DEPTH = 12;

    /** One simple command: its words in order, and the targets of its file redirections. */
    record SimpleCommand(List<String> words, List<String> redirectTargets) {
    }

    /** The line cannot be read (an unterminated quote or substitution, or too deep): it is not run unchecked. */
    static final class UncheckableException extends Exception {
        UncheckableException(String message) {
            super(message);
        }
    }

    private record HereDoc(String delimiter, boolean stripTabs) {
    }

    private final String s;
    private final int depth;
    private final List<SimpleCommand> out = new ArrayList<>();
    private List<String> words = new ArrayList<>();
    private List<String> redirects = new ArrayList<>();
    private final StringBuilder word = new StringBuilder();
    private boolean inWord;
    private boolean quoted;
    private String pendingRedirect;
    private final List<HereDoc> hereDocs = new ArrayList<>();
    private int i;

    private ShellSyntax(String s, int depth) {
        this.s = s;
        this.depth = depth;
    }

    static List<SimpleCommand> parse(String line) throws UncheckableException {
        return parse(line, 0);
    }

    static List<SimpleCommand> parse(String line, int depth) throws UncheckableException {
        if (depth > MAX_DEPTH) {
            throw new UncheckableException("it nests commands more than " + MAX_DEPTH + " levels deep");
        }
        ShellSyntax p = new ShellSyntax(line, depth);
        p.run();
        return p.out;
    }

    private void run() throws UncheckableException {
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            switch (c) {
                case ' ', '\t', '\r' -> {
                    endWord();
                    i++;
                }
                case '\n' -> {
                    endCommand();
                    i++;
                    skipHereDocBodies();
                }
                case '#' -> {
                    if (inWord) {
                        append(c);
                    } else {
                        while (i < n && s.charAt(i) != '\n') {
                            i++;
                        }
                    }
                }
                case '\'' -> {
                    int end = s.indexOf('\'', i + 1);
                    if (end < 0) {
                        throw new UncheckableException("a single quote is not closed");
                    }
                    startWord(true);
                    word.append(s, i + 1, end);
                    i = end + 1;
                }
                case '"' -> {
                    startWord(true);
                    readDoubleQuoted();
                }
                case '\\' -> {
                    if (i + 1 < n && s.charAt(i + 1) == '\n') {
                        i += 2; // line continuation
                    } else {
                        startWord(true);
                        if (i + 1 < n) {
                            word.append(s.charAt(i + 1));
                        }
                        i += 2;
                    }
                }
                case '$' -> readDollar();
                case '`' -> {
                    startWord(false);
                    readBackticks();
                }
                case '<', '>' -> {
                    if (!inWord && i + 1 < n && s.charAt(i + 1) == '(') {
                        startWord(false); // process substitution: <(cmd) and >(cmd)
                        int end = matchParen(i + 2);
                        nested(s.substring(i + 2, end));
                        i = end + 1;
                    } else {
                        boolean fdPrefix = inWord && !quoted && !word.isEmpty()
                                && word.chars().allMatch(Character::isDigit);
                        if (fdPrefix) { // 2>file: the digits name a file descriptor, they are no word
                            word.setLength(0);
                            inWord = false;
                        }
                        endWord();
                        pendingRedirect = operator("<<<", "<<-", "<<", "<>", "<&", "<", ">>", ">&", ">|", ">");
                    }
                }
                case '&' -> {
                    endWord();
                    if (s.startsWith("&>", i)) {
                        pendingRedirect = operator("&>>", "&>");
                    } else {
                        operator("&&", "&");
                        endCommand();
                    }
                }
                case '|', ';', '(', ')' -> {
                    endCommand();
                    operator("||", "|&", "|", ";;", ";", "(", ")");
                }
                default -> append(c);
            }
        }
        endCommand();
    }

    private void append(char c) {
        startWord(false);
        word.append(c);
        i++;
    }

    private void startWord(boolean withQuotes) {
        inWord = true;
        quoted |= withQuotes;
    }

    /** Consumes the longest of {@code ops} found at the current position and returns it. */
    private String operator(String... ops) {
        for (String op : ops) {
            if (s.startsWith(op, i)) {
                i += op.length();
                return op;
            }
        }
        i++;
        return String.valueOf(s.charAt(i - 1));
    }

    private void readDoubleQuoted() throws UncheckableException {
        i++; // the opening quote
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '"') {
                i++;
                return;
            }
            if (c == '\\' && i + 1 < s.length() && "$`\"\\\n".indexOf(s.charAt(i + 1)) >= 0) {
                if (s.charAt(i + 1) != '\n') {
                    word.append(s.charAt(i + 1));
                }
                i += 2;
            } else if (c == '$') {
                readDollar();
            } else if (c == '`') {
                readBackticks();
            } else {
                word.append(c);
                i++;
            }
        }
        throw new UncheckableException("a double quote is not closed");
    }

    /** {@code $(cmd)} is read as a command line of its own; {@code $((…))}, {@code ${…}} and {@code $NAME} stay. */
    private void readDollar() throws UncheckableException {
        startWord(false);
        if (s.startsWith("$((", i)) {
            int end = matchParen(i + 2); // arithmetic: no command inside
            word.append(s, i, end + 1);
            i = end + 1;
        } else if (s.startsWith("$(", i)) {
            int end = matchParen(i + 2);
            nested(s.substring(i + 2, end));
            word.append("$()"); // the word's value is unknown; keep a trace that something was substituted
            i = end + 1;
        } else {
            word.append('$');
            i++;
        }
    }

    private void readBackticks() throws UncheckableException {
        StringBuilder inner = new StringBuilder();
        int j = i + 1;
        while (j < s.length() && s.charAt(j) != '`') {
            if (s.charAt(j) == '\\' && j + 1 < s.length()) {
                inner.append(s.charAt(j + 1));
                j += 2;
            } else {
                inner.append(s.charAt(j++));
            }
        }
        if (j >= s.length()) {
            throw new UncheckableException("a backtick substitution is not closed");
        }
        nested(inner.toString());
        word.append("$()");
        i = j + 1;
    }

    /** The index of the {@code )} that closes a parenthesis opened just before {@code from}. */
    private int matchParen(int from) throws UncheckableException {
        int level = 1;
        int j = from;
        while (j < s.length()) {
            char c = s.charAt(j);
            if (c == '\\') {
                j += 2;
                continue;
            }
            if (c == '\'') {
                int end = s.indexOf('\'', j + 1);
                if (end < 0) {
                    break;
                }
                j = end + 1;
                continue;
            }
            if (c == '"') {
                j++;
                while (j < s.length() && s.charAt(j) != '"') {
                    j += s.charAt(j) == '\\' ? 2 : 1;
                }
                j++;
                continue;
            }
            if (c == '(') {
                level++;
            } else if (c == ')' && --level == 0) {
                return j;
            }
            j++;
        }
        throw new UncheckableException("a $( … ) substitution is not closed");
    }

    private void nested(String inner) throws UncheckableException {
        out.addAll(parse(inner, depth + 1));
    }

    private void endWord() {
        if (!inWord) {
            return;
        }
        String text = word.toString();
        word.setLength(0);
        inWord = false;
        quoted = false;
        if (pendingRedirect == null) {
            words.add(text);
            return;
        }
        String op = pendingRedirect;
        pendingRedirect = null;
        if (op.equals("<<") || op.equals("<<-")) {
            hereDocs.add(new HereDoc(text, op.equals("<<-")));
        } else if ((op.equals(">&") || op.equals("<&")) && text.matches("[0-9]*-?")) {
            // duplicating a file descriptor (2>&1), not a file
        } else {
            redirects.add(text);
        }
    }

    private void endCommand() {
        endWord();
        pendingRedirect = null;
        if (!words.isEmpty() || !redirects.isEmpty()) {
            out.add(new SimpleCommand(List.copyOf(words), List.copyOf(redirects)));
        }
        words = new ArrayList<>();
        redirects = new ArrayList<>();
    }

    /** Here-document bodies are data for a command, not commands: skip each up to its delimiter line. */
    private void skipHereDocBodies() {
        for (HereDoc doc : hereDocs) {
            while (i < s.length()) {
                int eol = s.indexOf('\n', i);
                String line = s.substring(i, eol < 0 ? s.length() : eol);
                i = eol < 0 ? s.length() : eol + 1;
                String compared = doc.stripTabs() ? line.replaceFirst("^\t+", "") : line;
                if (compared.equals(doc.delimiter())) {
                    break;
                }
            }
        }
        hereDocs.clear();
    }
}

package dev.agentbus.eventbus.redacting;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Masks secrets in tool output before it is written to the log or the stream: the log is kept forever, replayed,
 * exported and shown to everyone on the team, so a {@code cat .env} must not put an API key in it for good.
 *
 * <p>Pattern-based, so it is a safety net, not a guarantee: it knows the common token formats (OpenAI, GitHub,
 * AWS, Slack, Google, JWTs, private keys, bearer headers, passwords in URLs) and {@code NAME=value} assignments
 * whose name says password, secret, token or key. Tool arguments are not redacted: the worker needs them as the
 * model wrote them.
 */
public final class SecretRedactor {
    public static final String MASK = "[REDACTED]";

    private record Rule(Pattern pattern, String replacement) {
    }

    private static final List<Rule> RULES = List.of(
            new Rule(Pattern.compile("-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----[\\s\\S]*?-----END \\1PRIVATE KEY-----"),
                    "-----BEGIN $1PRIVATE KEY-----" + MASK + "-----END $1PRIVATE KEY-----"),
            new Rule(Pattern.compile("(?i)\\b(authorization\\s*[:=]\\s*(?:bearer|basic|token)\\s+)[A-Za-z0-9._~+/=-]{8,}"),
                    "$1" + MASK),
            new Rule(Pattern.compile("(?i)\\b(bearer\\s+)[A-Za-z0-9._~+/-]{20,}=*"), "$1" + MASK),
            new Rule(Pattern.compile("\\bsk-[A-Za-z0-9_-]{20,}"), MASK),
            new Rule(Pattern.compile("\\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{20,})"), MASK),
            new Rule(Pattern.compile("\\b(?:AKIA|ASIA)[0-9A-Z]{16}\\b"), MASK),
            new Rule(Pattern.compile("\\bxox[abprs]-[A-Za-z0-9-]{10,}"), MASK),
            new Rule(Pattern.compile("\\bAIza[0-9A-Za-z_-]{35}"), MASK),
            new Rule(Pattern.compile("\\beyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}"), MASK),
            new Rule(Pattern.compile("(://[^/\\s:@]+:)[^/\\s@]+@"), "$1" + MASK + "@"),
            new Rule(Pattern.compile("(?i)\\b([A-Z0-9_.-]*(?:passw(?:or)?d|secret|token|api[_-]?key|access[_-]?key|"
                    + "private[_-]?key|credentials?)[A-Z0-9_.-]*[\"']?\\s*[=:]\\s*[\"']?)(?!\\[REDACTED\\])[^\\s\"',;]{4,}"),
                    "$1" + MASK));

    private SecretRedactor() {
    }

    /** The text with every secret found replaced by {@value #MASK}; null stays null. */
    public static String redact(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String out = text;
        for (Rule rule : RULES) {
            Matcher m = rule.pattern().matcher(out);
            if (m.find()) {
                out = m.replaceAll(rule.replacement());
            }
        }
        return out;
    }
}

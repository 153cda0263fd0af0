package dev.agentbus.sandbox.tools;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;

/**
 * A {@code java.nio} glob with one convenience: a pattern starting with {@code **}{@code /} also matches at the top
 * level. Java's glob needs at least one directory for {@code **}{@code /*.java}, while models (and most shells with
 * globstar, and gitignore) expect it to match {@code Main.java} too.
 */
final class Globs {
    private final PathMatcher matcher;
    private final PathMatcher topLevel;

    private Globs(PathMatcher matcher, PathMatcher topLevel) {
        this.matcher = matcher;
        this.topLevel = topLevel;
    }

    static Globs compile(String pattern) throws ToolFailure {
        if (pattern.isEmpty()) {
            throw new ToolFailure("glob pattern must not be empty");
        }
        try {
            PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
            PathMatcher topLevel = pattern.startsWith("**/") && pattern.length() > 3
                    ? FileSystems.getDefault().getPathMatcher("glob:" + pattern.substring(3))
                    : null;
            return new Globs(matcher, topLevel);
        } catch (IllegalArgumentException e) { // PatternSyntaxException included
            throw new ToolFailure("invalid glob pattern: " + pattern + " (" + e.getMessage().lines().findFirst()
                    .orElse("syntax error") + ")");
        }
    }

    boolean matches(Path relative) {
        return matcher.matches(relative) || (topLevel != null && topLevel.matches(relative));
    }
}

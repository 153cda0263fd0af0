package dev.agentbus.gateway.workspace;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The exit code in a {@code shell} result: the worker ends the output of a command that ran to completion with a
 * line {@code exit code: N} (docs/tools.md), followed at most by a note that the time-out was clamped.
 */
final class CommandOutputs {
    private static final Pattern EXIT_CODE = Pattern.compile("(?m)^exit code: (-?\\d{1,10})$");

    private CommandOutputs() {
    }

    /** The last {@code exit code: N} line's N, or null when there is none (the command did not finish). */
    static Integer exitCode(String output) {
        if (output == null) {
            return null;
        }
        Matcher m = EXIT_CODE.matcher(output);
        Integer code = null;
        while (m.find()) {
            try {
                code = Integer.valueOf(m.group(1));
            } catch (NumberFormatException e) {
                code = null;
            }
        }
        return code;
    }
}

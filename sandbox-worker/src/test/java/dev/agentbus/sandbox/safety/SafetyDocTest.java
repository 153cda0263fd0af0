package dev.agentbus.sandbox.safety;

import dev.agentbus.sandbox.commands.CommandRules;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The defaults docs/tools.md lists are the code's defaults, so an operator reading the page is not misled. */
class SafetyDocTest {
    @Test
    void the_default_blocked_commands_allowed_paths_and_denied_programs_are_all_documented() throws Exception {
        // Under Maven the working directory is the module directory; docs/ is beside the modules.
        String doc = Files.readString(Path.of("").toAbsolutePath().getParent().resolve("docs").resolve("tools.md"));

        SafetyPolicy.DEFAULT_BLOCKED.forEach(c -> assertThat(doc).contains("`" + c + "`"));
        SafetyPolicy.DEFAULT_ALLOWED_PATHS.forEach(p -> assertThat(doc).contains("`" + p + "`"));
        CommandRules.DEFAULT_DENY.forEach(p -> assertThat(doc).contains("`" + p + "`"));
    }
}

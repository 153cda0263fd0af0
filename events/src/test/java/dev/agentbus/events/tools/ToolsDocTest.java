package dev.agentbus.events.tools;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/tools.md describes every tool there is; a tool added to the catalogue without its documentation fails here. */
class ToolsDocTest {
    @Test
    void every_tool_of_the_catalogue_has_a_row_or_section_in_docs_tools_md() throws Exception {
        // Under Maven the working directory is the module directory; docs/ is beside the modules.
        String doc = Files.readString(Path.of("").toAbsolutePath().getParent().resolve("docs").resolve("tools.md"));

        for (ToolSpec tool : ToolCatalog.ALL) {
            assertThat(doc).as("docs/tools.md documents " + tool.name())
                    .containsAnyOf("| `" + tool.name() + "` |", "## " + tool.name(), "`" + tool.name() + " {");
        }
    }

    @Test
    void every_tools_risk_class_is_the_one_docs_tools_md_gives_it() throws Exception {
        String doc = Files.readString(Path.of("").toAbsolutePath().getParent().resolve("docs").resolve("tools.md"));
        String section = doc.substring(doc.indexOf("## Risk classes"), doc.indexOf("## The safety layer"));

        for (ToolSpec tool : ToolCatalog.ALL) {
            assertThat(section).as("docs/tools.md#risk-classes gives " + tool.name() + " its class")
                    .contains("| `" + tool.name() + "` | " + tool.risk().name().toLowerCase(java.util.Locale.ROOT)
                            + " |");
        }
    }
}

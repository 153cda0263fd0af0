package dev.agentbus.sandbox.shell;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Reading {@code export -p}, in the forms dash and bash print. */
class ExportListTest {
    @Test
    void dash_quotes_values_in_single_quotes_and_a_quote_as_a_double_quoted_quote() {
        String printed = "export A='plain'\nexport B='it'\"'\"'s'\nexport C=''\nexport UNSET\n"
                + "export MULTI='line one\nline two'\n";

        Map<String, String> vars = ExportList.parse(printed);

        assertThat(vars).containsExactly(Map.entry("A", "plain"), Map.entry("B", "it's"), Map.entry("C", ""),
                Map.entry("MULTI", "line one\nline two"));
    }

    @Test
    void bash_in_posix_mode_uses_double_quotes_with_escapes() {
        assertThat(ExportList.parse("export X=\"a \\\"b\\\" \\$c\"\n")).containsExactly(Map.entry("X", "a \"b\" $c"));
    }

    @Test
    void lines_that_are_not_exports_and_bad_names_are_skipped() {
        assertThat(ExportList.parse("garbage\nexport 1BAD='x'\nexport OK='y'\n"))
                .containsExactly(Map.entry("OK", "y"));
    }
}

package dev.agentbus.eventbus;

import io.micronaut.context.ApplicationContext;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SettingValuesCheckTest {

    @ParameterizedTest
    @ValueSource(strings = {"true", "false", "TRUE", "False", "yes", "no", "on", "off", "y", "n"})
    void a_yes_or_no_word_is_a_readable_boolean(String raw) {
        try (ApplicationContext ctx = ApplicationContext.builder().enableDefaultPropertySources(false).start()) {
            assertThatCode(() -> new SettingValuesCheck(ctx.getEnvironment()).checkReadable("a.flag", raw,
                    boolean.class)).doesNotThrowAnyException();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "0", "enabled", "", " true"})
    void anything_else_is_refused_rather_than_read_as_false(String raw) {
        try (ApplicationContext ctx = ApplicationContext.builder().enableDefaultPropertySources(false).start()) {
            assertThatThrownBy(() -> new SettingValuesCheck(ctx.getEnvironment()).checkReadable("a.flag", raw,
                    boolean.class)).hasMessage("a.flag must be true or false, not '" + raw + "'");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.5", "2", "1e3"})
    void a_decimal_setting_takes_any_number(String raw) {
        try (ApplicationContext ctx = ApplicationContext.builder().enableDefaultPropertySources(false).start()) {
            assertThatCode(() -> new SettingValuesCheck(ctx.getEnvironment()).checkReadable("a.cpus", raw,
                    double.class)).doesNotThrowAnyException();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.5", "12abc", "", "99999999999"})
    void a_whole_number_setting_refuses_what_does_not_fit_it(String raw) {
        try (ApplicationContext ctx = ApplicationContext.builder().enableDefaultPropertySources(false).start()) {
            assertThatThrownBy(() -> new SettingValuesCheck(ctx.getEnvironment()).checkReadable("a.count", raw,
                    int.class)).hasMessage("a.count must be a whole number, not '" + raw + "'");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "99999999999"})
    void a_long_setting_takes_large_whole_numbers(String raw) {
        try (ApplicationContext ctx = ApplicationContext.builder().enableDefaultPropertySources(false)
                .properties(Map.of()).start()) {
            assertThatCode(() -> new SettingValuesCheck(ctx.getEnvironment()).checkReadable("a.bytes", raw,
                    long.class)).doesNotThrowAnyException();
        }
    }
}

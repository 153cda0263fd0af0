package dev.agentbus.eventbus.outgoing;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The address rules of the outgoing policy, on address literals (no DNS, no network). */
class OutgoingPolicyTest {

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1:8080/v1", "http://127.1.2.3/", "http://[::1]:9092/",
            "http://169.254.169.254/latest/meta-data/", "http://[fe80::1]/", "http://10.0.0.5:1234/v1",
            "http://172.16.3.4/", "http://172.31.255.255/", "http://192.168.1.10/", "http://100.64.0.1/",
            "http://100.127.255.254/", "http://[fd12:3456::1]/", "http://[fc00::1]/", "http://0.0.0.0:8080/",
            "http://[::]:8080/", "http://224.0.0.1/", "http://255.255.255.255/", "http://[::ffff:127.0.0.1]/",
            "http://[::ffff:169.254.169.254]/", "http://[64:ff9b::a00:1]/", "http://[2002:a9fe:a9fe::]/",
            "http://[ff02::1]/"})
    void internal_addresses_are_refused_by_default(String url) {
        assertThatThrownBy(() -> OutgoingPolicy.DEFAULT.check(url)).isInstanceOf(OutgoingRefused.class)
                .hasMessageContaining("agentbus.outgoing.allow");
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://0x7f000001/", "http://2130706433/", "http://017700000001/", "http://127.1/"})
    void other_spellings_of_loopback_are_refused_too(String url) {
        assertThatThrownBy(() -> OutgoingPolicy.DEFAULT.check(url)).isInstanceOf(OutgoingRefused.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://8.8.8.8/v1", "https://1.1.1.1:8443/", "http://[2001:4860:4860::8888]/",
            "http://172.32.0.1/", "http://100.128.0.1/", "http://11.0.0.1/"})
    void public_addresses_pass(String url) throws OutgoingRefused {
        OutgoingPolicy.DEFAULT.check(url);
    }

    @Test
    void only_http_and_https_urls_with_a_host_are_fetched() {
        assertThatThrownBy(() -> OutgoingPolicy.DEFAULT.check("file:///etc/passwd"))
                .isInstanceOf(OutgoingRefused.class).hasMessageContaining("only http and https");
        assertThatThrownBy(() -> OutgoingPolicy.DEFAULT.check("gopher://8.8.8.8/"))
                .isInstanceOf(OutgoingRefused.class);
        assertThatThrownBy(() -> OutgoingPolicy.DEFAULT.check("http:///x")).isInstanceOf(OutgoingRefused.class);
    }

    @Test
    void the_allow_list_opens_hosts_ports_and_networks() throws OutgoingRefused {
        OutgoingPolicy lan = OutgoingPolicy.allowing("10.0.0.0/8, 192.168.1.20:1234 ,[::1]:8081, fd00::/8");
        lan.check("http://10.1.2.3:9999/v1");
        lan.check("http://192.168.1.20:1234/v1");
        lan.check("http://[::1]:8081/mcp");
        lan.check("http://[fd00::7]/");
        assertThatThrownBy(() -> lan.check("http://192.168.1.20:1235/v1")).isInstanceOf(OutgoingRefused.class);
        assertThatThrownBy(() -> lan.check("http://192.168.1.21:1234/v1")).isInstanceOf(OutgoingRefused.class);
        assertThatThrownBy(() -> lan.check("http://[::1]:8082/")).isInstanceOf(OutgoingRefused.class);
        assertThatThrownBy(() -> lan.check("http://169.254.169.254/")).isInstanceOf(OutgoingRefused.class);
        OutgoingPolicy.allowing("127.0.0.1").check("http://127.0.0.1:5555/");
        OutgoingPolicy.allowing("localhost:5555").check("http://LOCALHOST:5555/");
        assertThat(OutgoingPolicy.allowing("localhost:5555").allows("http://localhost:5556/")).isFalse();
    }

    @Test
    void a_wrong_allow_list_entry_is_named() {
        for (String bad : new String[]{"10.0.0.0/33", "host:port", "a b", "[::1", "10.0.0.0/x", "h:0"}) {
            assertThatThrownBy(() -> new OutgoingSettings(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("agentbus.outgoing.allow");
        }
    }

    @Test
    void the_gateways_own_port_is_refused_even_where_its_address_is_allowed() throws OutgoingRefused {
        OutgoingPolicy loopback = OutgoingPolicy.allowing("127.0.0.1");
        int port = 47_913;
        loopback.check("http://127.0.0.1:" + port + "/v1");
        OwnListeners.add(port);
        try {
            assertThatThrownBy(() -> loopback.check("http://127.0.0.1:" + port + "/v1"))
                    .isInstanceOf(OutgoingRefused.class).hasMessageContaining("own gateway");
            assertThatThrownBy(() -> loopback.check("http://[::1]:" + port + "/api/v1"))
                    .isInstanceOf(OutgoingRefused.class).hasMessageContaining("own gateway");
        } finally {
            OwnListeners.remove(port);
        }
    }

    @Test
    void a_status_is_shown_with_a_fixed_reason() {
        assertThat(OutgoingPolicy.statusReason(500)).isEqualTo("HTTP 500 (internal server error)");
        assertThat(OutgoingPolicy.statusReason(302)).contains("redirect");
        assertThat(OutgoingPolicy.statusReason(418)).isEqualTo("HTTP 418 (the request was refused)");
    }
}

package dev.agentbus.gateway.auth;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TrustedProxiesTest {

    @Test
    void without_trusted_proxies_the_header_is_ignored() {
        assertThat(TrustedProxies.none().clientAddress("10.0.0.1", List.of("203.0.113.7")))
                .isEqualTo("10.0.0.1");
        assertThat(TrustedProxies.parse("").isEmpty()).isTrue();
    }

    @Test
    void from_a_trusted_proxy_the_right_most_untrusted_address_is_the_client() {
        TrustedProxies proxies = TrustedProxies.parse("10.0.0.0/8, 192.168.1.5");
        // The client forged the first entry; the proxy appended what it saw.
        assertThat(proxies.clientAddress("10.0.0.1", List.of("1.2.3.4, 203.0.113.7")))
                .isEqualTo("203.0.113.7");
        // Two proxies in a row, both trusted: skip both.
        assertThat(proxies.clientAddress("10.0.0.1", List.of("203.0.113.7, 192.168.1.5")))
                .isEqualTo("203.0.113.7");
        // Headers repeated are one list, in order.
        assertThat(proxies.clientAddress("10.0.0.1", List.of("1.2.3.4", "198.51.100.2")))
                .isEqualTo("198.51.100.2");
    }

    @Test
    void an_untrusted_sender_cannot_pick_its_address() {
        TrustedProxies proxies = TrustedProxies.parse("10.0.0.0/8");
        assertThat(proxies.clientAddress("203.0.113.7", List.of("10.0.0.9"))).isEqualTo("203.0.113.7");
    }

    @Test
    void garbage_in_the_header_stops_at_the_last_address_vouched_for() {
        TrustedProxies proxies = TrustedProxies.parse("127.0.0.1");
        assertThat(proxies.clientAddress("127.0.0.1", List.of("not-an-address"))).isEqualTo("127.0.0.1");
        assertThat(proxies.clientAddress("127.0.0.1", List.of())).isEqualTo("127.0.0.1");
    }

    @Test
    void ipv6_ranges_and_bad_entries() {
        TrustedProxies proxies = TrustedProxies.parse("fd00::/8, ::1");
        assertThat(proxies.trusts("fd12::1")).isTrue();
        assertThat(proxies.trusts("::1")).isTrue();
        assertThat(proxies.trusts("fe80::1")).isFalse();
        assertThat(proxies.trusts("127.0.0.1")).isFalse();
        assertThatThrownBy(() -> TrustedProxies.parse("proxy.example.org"))
                .hasMessageContaining("proxy.example.org");
        assertThatThrownBy(() -> TrustedProxies.parse("10.0.0.0/33")).hasMessageContaining("prefix");
        assertThatThrownBy(() -> TrustedProxies.parse("300.1.1.1")).hasMessageContaining("300.1.1.1");
    }
}

package dev.agentbus.gateway.workspace;

import dev.agentbus.api.workspace.WorkspaceListing;
import dev.agentbus.api.workspace.WorkspaceListing.Entry;
import dev.agentbus.gateway.errors.ApiException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The worker's ls text (docs/tools.md) read back into entries. */
class DirectoryListingsTest {

    @Test
    void directories_files_and_links_are_told_apart() {
        WorkspaceListing listing = DirectoryListings.parse(".", ".env\nREADME.md\ncurrent -> build/v2\nsrc/\n",
                false, "user-1");

        assertThat(listing.entries()).containsExactly(new Entry(".env", Entry.FILE, null),
                new Entry("README.md", Entry.FILE, null), new Entry("current", Entry.LINK, "build/v2"),
                new Entry("src", Entry.DIRECTORY, null));
        assertThat(listing.truncated()).isFalse();
        assertThat(listing.callId()).isEqualTo("user-1");
        assertThat(listing.path()).isEqualTo(".");
    }

    @Test
    void an_empty_directory_has_no_entries() {
        assertThat(DirectoryListings.parse("out", "out: empty directory", false, "c").entries()).isEmpty();
    }

    @Test
    void more_entries_than_listed_make_it_truncated() {
        WorkspaceListing listing = DirectoryListings.parse(".", "a\nb\n[1500 more entries not shown; use glob or "
                + "shell to narrow down]\n", false, "c");

        assertThat(listing.entries()).extracting(Entry::name).containsExactly("a", "b");
        assertThat(listing.truncated()).isTrue();
    }

    @Test
    void output_cut_to_the_cap_drops_the_last_entry_which_may_be_cut_in_the_middle() {
        WorkspaceListing listing = DirectoryListings.parse(".", "alpha\nbeta\ngam\n[output truncated: 99 more bytes "
                + "not shown]", true, "c");

        assertThat(listing.entries()).extracting(Entry::name).containsExactly("alpha", "beta");
        assertThat(listing.truncated()).isTrue();
    }

    @Test
    void a_file_is_not_a_directory() {
        assertThatThrownBy(() -> DirectoryListings.parse("a.txt", "a.txt (file, 12 bytes)", false, "c"))
                .isInstanceOf(ApiException.class).hasMessage("a.txt is a file, not a directory");
    }
}

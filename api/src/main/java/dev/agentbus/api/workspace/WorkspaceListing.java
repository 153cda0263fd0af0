package dev.agentbus.api.workspace;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/**
 * {@code GET .../workspace/list}: one directory of the workspace, sorted by name, as the worker's {@code ls} tool
 * listed it (at most 1000 entries; {@code truncated} says there were more).
 *
 * @param path the directory as given ({@code .} for the workspace root)
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record WorkspaceListing(String path, List<Entry> entries, boolean truncated, String callId) {
    public WorkspaceListing {
        entries = List.copyOf(entries);
    }

    /**
     * One entry. Links are shown, not followed: a link to a directory is a {@code link}.
     *
     * @param type   {@code file}, {@code directory} or {@code link}
     * @param target where a link points, as it is written; absent for the others
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Entry(String name, String type, String target) {
        public static final String FILE = "file";
        public static final String DIRECTORY = "directory";
        public static final String LINK = "link";

        /** Not a field of the answer: {@code type} says it. */
        @JsonIgnore
        public boolean isDirectory() {
            return DIRECTORY.equals(type);
        }
    }
}

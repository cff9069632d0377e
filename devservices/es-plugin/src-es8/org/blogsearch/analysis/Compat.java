package org.blogsearch.analysis;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.search.TotalHits;
import org.elasticsearch.action.ActionRequest;
import org.elasticsearch.action.ActionResponse;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.index.analysis.AbstractIndexAnalyzerProvider;
import org.elasticsearch.index.analysis.AbstractTokenFilterFactory;
import org.elasticsearch.index.reindex.DeleteByQueryAction;
import org.elasticsearch.plugins.ActionPlugin;
import org.elasticsearch.plugins.Plugin;

import java.util.Collection;
import java.util.List;

/**
 * The few plugin APIs that differ between Elasticsearch 8.x (Lucene 9) and 9.x (Lucene 10), for
 * 8.x. src-es9/ holds the same class for 9.x; devservices/es-dist.sh compiles src/ with the one
 * of the distribution's major version.
 */
final class Compat {
    private Compat() {}

    /** 8.x: the factory's constructor takes the filter's settings (9.x: its name only). */
    abstract static class FilterFactory extends AbstractTokenFilterFactory {
        FilterFactory(String name, Settings settings) {
            super(name, settings);
        }
    }

    /** 8.x: the provider's constructor takes the analyzer's settings (9.x: its name only). */
    abstract static class AnalyzerProvider<T extends Analyzer> extends AbstractIndexAnalyzerProvider<T> {
        AnalyzerProvider(String name, Settings settings) {
            super(name, settings);
        }
    }

    /** Lucene 9: a public field (Lucene 10: a record's accessor). */
    static long value(TotalHits hits) {
        return hits.value;
    }

    /** 8.x: ActionHandler is generic in the request and response (9.x: not). */
    abstract static class ActionsPlugin extends Plugin implements ActionPlugin {
        @Override
        public Collection<ActionHandler<? extends ActionRequest, ? extends ActionResponse>> getActions() {
            return List.of(new ActionHandler<>(DeleteByQueryAction.INSTANCE, DeleteByQueryTransport.class));
        }
    }
}

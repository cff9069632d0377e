package org.blogsearch.analysis;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.search.TotalHits;
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
 * 9.x: see src-es8/'s Compat.
 */
final class Compat {
    private Compat() {}

    abstract static class FilterFactory extends AbstractTokenFilterFactory {
        FilterFactory(String name, Settings settings) {
            super(name);
        }
    }

    abstract static class AnalyzerProvider<T extends Analyzer> extends AbstractIndexAnalyzerProvider<T> {
        AnalyzerProvider(String name, Settings settings) {
            super(name);
        }
    }

    static long value(TotalHits hits) {
        return hits.value();
    }

    abstract static class ActionsPlugin extends Plugin implements ActionPlugin {
        @Override
        public Collection<ActionHandler> getActions() {
            return List.of(new ActionHandler(DeleteByQueryAction.INSTANCE, DeleteByQueryTransport.class));
        }
    }
}

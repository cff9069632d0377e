package org.blogsearch.analysis;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.synonym.SolrSynonymParser;
import org.apache.lucene.analysis.synonym.SynonymFilter;
import org.apache.lucene.analysis.synonym.SynonymGraphFilter;
import org.apache.lucene.analysis.synonym.SynonymMap;
import org.apache.lucene.analysis.synonym.WordnetSynonymParser;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;
import org.elasticsearch.index.IndexService.IndexCreationContext;
import org.elasticsearch.index.analysis.Analysis;
import org.elasticsearch.index.analysis.AnalysisMode;
import org.elasticsearch.index.analysis.CharFilterFactory;
import org.elasticsearch.index.analysis.CustomAnalyzer;
import org.elasticsearch.index.analysis.TokenFilterFactory;
import org.elasticsearch.index.analysis.TokenizerFactory;
import org.elasticsearch.synonyms.SynonymsManagementAPIService;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The full distribution's "synonym_graph" and "synonym" token filters (analysis-common), for the
 * development node: rules inline (`synonyms`), from a file under the config folder
 * (`synonyms_path`) or from a synonyms set of the synonyms API (`synonyms_set`), in Solr or
 * WordNet format, with the same `expand`, `lenient` and `updateable` settings.
 *
 * Written for this project (the module's source is not ours to copy); the behaviour follows the
 * reference documentation:
 * - the rules are analyzed by the chain before the filter (tokenizer, char filters, earlier token
 *   filters), so "JS" in a rule matches "js" in a lowercased stream;
 * - `updateable` makes the filter search-time only, so that the reload analyzers API (which the
 *   synonyms API calls after every change of a set) can rebuild it without a reindex;
 * - a set is read from the `.synonyms` system index only when analyzers are reloaded (which the
 *   server also does when a shard starts): building an index or checking its metadata gets an
 *   empty map, so that no cluster-state thread waits on a search;
 * - `lenient` skips a rule that does not analyze instead of failing the whole analyzer.
 */
final class SynonymFilterFactory extends Compat.FilterFactory {

    private static final Logger LOG = LogManager.getLogger(SynonymFilterFactory.class);

    private final Settings settings;
    private final Environment environment;
    private final Supplier<SynonymsManagementAPIService> synonymsService;
    private final boolean graph;
    private final boolean expand;
    private final boolean lenient;
    private final boolean wordnet;
    private final AnalysisMode analysisMode;

    SynonymFilterFactory(String name, Settings settings, Environment environment, Supplier<SynonymsManagementAPIService> synonymsService, boolean graph) {
        super(name, settings);
        this.settings = settings;
        this.environment = environment;
        this.synonymsService = synonymsService;
        this.graph = graph;
        this.expand = settings.getAsBoolean("expand", true);
        boolean updateable = settings.getAsBoolean("updateable", false);
        this.lenient = settings.getAsBoolean("lenient", updateable);
        this.wordnet = "wordnet".equalsIgnoreCase(settings.get("format", ""));
        this.analysisMode = updateable ? AnalysisMode.SEARCH_TIME : AnalysisMode.ALL;
        if (settings.hasValue("synonyms") == false && settings.hasValue("synonyms_set") == false && settings.hasValue("synonyms_path") == false) {
            throw new IllegalArgumentException("synonym requires either `synonyms`, `synonyms_set` or `synonyms_path` to be configured");
        }
        if (settings.hasValue("synonyms_set") && updateable == false) {
            throw new IllegalArgumentException(
                "Can't apply [synonyms_set]! Loading synonyms from index is supported only for search time synonyms!"
            );
        }
    }

    @Override
    public AnalysisMode getAnalysisMode() {
        return analysisMode;
    }

    @Override
    public TokenStream create(TokenStream tokenStream) {
        throw new IllegalStateException("a synonym filter is built for its analysis chain (getChainAwareTokenFilterFactory) first");
    }

    @Override
    public TokenFilterFactory getChainAwareTokenFilterFactory(
        IndexCreationContext context,
        TokenizerFactory tokenizer,
        List<CharFilterFactory> charFilters,
        List<TokenFilterFactory> previousTokenFilters,
        Function<String, TokenFilterFactory> allFilters
    ) {
        // The rules pass through the chain so far, with earlier synonym filters left out (a rule is
        // not expanded by another filter's rules).
        Analyzer ruleAnalyzer = new CustomAnalyzer(
            tokenizer,
            charFilters.toArray(new CharFilterFactory[0]),
            previousTokenFilters.stream().map(TokenFilterFactory::getSynonymFilter).toArray(TokenFilterFactory[]::new)
        );
        String set = settings.get("synonyms_set");
        SynonymMap map = build(ruleAnalyzer, rules(context, set));
        String filterName = name();
        boolean asGraph = graph;
        AnalysisMode mode = analysisMode;
        return new TokenFilterFactory() {
            @Override
            public String name() {
                return filterName;
            }

            @Override
            public TokenStream create(TokenStream tokenStream) {
                if (map.fst == null) {
                    return tokenStream;
                }
                return asGraph ? new SynonymGraphFilter(tokenStream, map, false) : new SynonymFilter(tokenStream, map, false);
            }

            @Override
            public TokenFilterFactory getSynonymFilter() {
                return IDENTITY_FILTER;
            }

            @Override
            public AnalysisMode getAnalysisMode() {
                return mode;
            }

            @Override
            public String getResourceName() {
                return set; // the synonyms API reloads the analyzers of the set it changed
            }
        };
    }

    /** The rules' text, one rule a line. */
    private String rules(IndexCreationContext context, String set) {
        try {
            if (settings.hasValue("synonyms")) {
                return String.join("\n", Analysis.getWordList(environment, settings, "synonyms"));
            }
            if (set != null) {
                if (context != IndexCreationContext.RELOAD_ANALYZERS) {
                    return "";
                }
                return read(Analysis.getReaderFromIndex(set, synonymsService.get(), lenient));
            }
            // getReaderFromFile appends "_path" to the setting's name
            return read(Analysis.getReaderFromFile(environment, settings.get("synonyms_path"), "synonyms"));
        } catch (IOException e) {
            throw new IllegalArgumentException("failed to read the synonym rules of [" + name() + "]", e);
        }
    }

    private static String read(Reader reader) throws IOException {
        try (BufferedReader in = new BufferedReader(reader)) {
            StringBuilder out = new StringBuilder();
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                out.append(line).append('\n');
            }
            return out.toString();
        }
    }

    private SynonymMap build(Analyzer analyzer, String text) {
        try {
            if (lenient == false) {
                return parse(analyzer, text);
            }
            // Lenient: each rule is tried alone first, and one that fails is left out and logged.
            List<String> kept = new ArrayList<>();
            for (String line : text.split("\n")) {
                try {
                    parse(analyzer, line);
                    kept.add(line);
                } catch (Exception e) {
                    LOG.warn("synonym rule [{}] of [{}] skipped: {}", line, name(), e.getMessage());
                }
            }
            return parse(analyzer, String.join("\n", kept));
        } catch (Exception e) {
            throw new IllegalArgumentException("failed to build synonyms of [" + name() + "]", e);
        }
    }

    private SynonymMap parse(Analyzer analyzer, String text) throws Exception {
        if (wordnet) {
            WordnetSynonymParser parser = new WordnetSynonymParser(true, expand, analyzer);
            parser.parse(new StringReader(text));
            return parser.build();
        }
        SolrSynonymParser parser = new SolrSynonymParser(true, expand, analyzer);
        parser.parse(new StringReader(text));
        return parser.build();
    }
}

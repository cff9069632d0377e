package org.blogsearch.analysis;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.bulk.BulkItemResponse;
import org.elasticsearch.action.bulk.BulkRequest;
import org.elasticsearch.action.delete.DeleteRequest;
import org.elasticsearch.action.search.ClearScrollRequest;
import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.action.search.SearchResponse;
import org.elasticsearch.action.search.SearchScrollRequest;
import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.action.support.HandledTransportAction;
import org.elasticsearch.client.internal.Client;
import org.elasticsearch.common.document.DocumentField;
import org.elasticsearch.common.util.concurrent.EsExecutors;
import org.elasticsearch.core.TimeValue;
import org.elasticsearch.index.reindex.BulkByScrollResponse;
import org.elasticsearch.index.reindex.BulkByScrollTask;
import org.elasticsearch.index.reindex.DeleteByQueryAction;
import org.elasticsearch.index.reindex.DeleteByQueryRequest;
import org.elasticsearch.index.reindex.ScrollableHitSource;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.rest.RestStatus;
import org.elasticsearch.search.SearchHit;
import org.elasticsearch.search.builder.SearchSourceBuilder;
import org.elasticsearch.search.sort.SortBuilders;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.transport.TransportService;

import java.util.ArrayList;
import java.util.List;

/**
 * The delete-by-query action of the full distribution's reindex module, for the development node,
 * under its own name (indices:data/write/delete/byquery), so that the synonyms API can replace a
 * set (it deletes the set's old rules by query before it writes the new ones).
 *
 * A plain version, written for this project: scroll the matching documents in batches, delete each
 * batch by id with one bulk request, each delete only if the document is still the one the search
 * saw (its sequence number and primary term, as the full action does: a document changed meanwhile
 * is a version conflict, which aborts unless `conflicts=proceed`), then refresh the searched
 * indices when asked. No slices, no throttling, no task status while it runs: none of which the
 * synonyms API asks for. The REST endpoint `_delete_by_query` is not registered; nothing uses it.
 */
public final class DeleteByQueryTransport extends HandledTransportAction<DeleteByQueryRequest, BulkByScrollResponse> {

    private final Client client;

    @Inject
    public DeleteByQueryTransport(TransportService transportService, ActionFilters actionFilters, Client client) {
        super(DeleteByQueryAction.NAME, transportService, actionFilters, DeleteByQueryRequest::new, EsExecutors.DIRECT_EXECUTOR_SERVICE);
        this.client = client;
    }

    @Override
    protected void doExecute(Task task, DeleteByQueryRequest request, ActionListener<BulkByScrollResponse> listener) {
        new Run(request, listener).start();
    }

    private final class Run {
        private final DeleteByQueryRequest request;
        private final ActionListener<BulkByScrollResponse> listener;
        private final long startNanos = System.nanoTime();
        private final List<BulkItemResponse.Failure> bulkFailures = new ArrayList<>();
        private final List<ScrollableHitSource.SearchFailure> searchFailures = new ArrayList<>();
        private long total;
        private long deleted;
        private long versionConflicts;
        private int batches;
        private String scrollId;

        Run(DeleteByQueryRequest request, ActionListener<BulkByScrollResponse> listener) {
            this.request = request;
            this.listener = listener;
        }

        void start() {
            SearchRequest search = request.getSearchRequest();
            if (search.source() == null) {
                search.source(new SearchSourceBuilder());
            }
            SearchSourceBuilder source = search.source();
            source.size(request.getBatchSize()).fetchSource(false).trackTotalHits(true).seqNoAndPrimaryTerm(true);
            if (source.sorts() == null || source.sorts().isEmpty()) {
                source.sort(SortBuilders.fieldSort("_doc"));
            }
            search.scroll(request.getScrollTime());
            client.search(search, ActionListener.wrap(this::onPage, this::fail));
        }

        /** Reads what it needs from a page while the response is alive, then deletes that batch. */
        private void onPage(SearchResponse page) {
            scrollId = page.getScrollId();
            if (batches == 0 && page.getHits().getTotalHits() != null) {
                total = Compat.value(page.getHits().getTotalHits());
            }
            if (page.getShardFailures() != null) {
                for (var failure : page.getShardFailures()) {
                    searchFailures.add(new ScrollableHitSource.SearchFailure(failure.getCause(), failure.index(), failure.shardId(), null));
                }
            }
            SearchHit[] hits = page.getHits().getHits();
            if (searchFailures.isEmpty() == false || hits.length == 0) {
                finish();
                return;
            }
            int maxDocs = request.getMaxDocs();
            BulkRequest bulk = new BulkRequest();
            for (SearchHit hit : hits) {
                if (maxDocs > 0 && deleted + bulk.numberOfActions() >= maxDocs) {
                    break;
                }
                DeleteRequest delete = new DeleteRequest(hit.getIndex(), hit.getId()).setIfSeqNo(hit.getSeqNo())
                    .setIfPrimaryTerm(hit.getPrimaryTerm());
                DocumentField routing = hit.field("_routing");
                if (routing != null) {
                    delete.routing(routing.getValue());
                }
                bulk.add(delete);
            }
            batches++;
            client.bulk(bulk, ActionListener.wrap(this::onBulk, this::fail));
        }

        private void onBulk(org.elasticsearch.action.bulk.BulkResponse response) {
            for (BulkItemResponse item : response.getItems()) {
                if (item.isFailed() == false) {
                    deleted++;
                } else if (item.getFailure().getStatus() == RestStatus.CONFLICT) {
                    versionConflicts++;
                    if (request.isAbortOnVersionConflict()) {
                        bulkFailures.add(item.getFailure());
                    }
                } else {
                    bulkFailures.add(item.getFailure());
                }
            }
            int maxDocs = request.getMaxDocs();
            if (bulkFailures.isEmpty() == false || (maxDocs > 0 && deleted >= maxDocs)) {
                finish();
                return;
            }
            client.searchScroll(new SearchScrollRequest(scrollId).scroll(request.getScrollTime()), ActionListener.wrap(this::onPage, this::fail));
        }

        private void finish() {
            clearScroll();
            if (request.isRefresh() == false || deleted == 0) {
                respond();
                return;
            }
            SearchRequest search = request.getSearchRequest();
            client.admin()
                .indices()
                .prepareRefresh(search.indices())
                .setIndicesOptions(search.indicesOptions()) // a missing index is no error where the search ignored it
                .execute(ActionListener.wrap(r -> respond(), this::fail));
        }

        private void respond() {
            BulkByScrollTask.Status status = new BulkByScrollTask.Status(
                null, total, 0, 0, deleted, batches, versionConflicts, 0, 0, 0, TimeValue.ZERO, request.getRequestsPerSecond(), null, TimeValue.ZERO
            );
            TimeValue took = TimeValue.timeValueNanos(System.nanoTime() - startNanos);
            listener.onResponse(new BulkByScrollResponse(took, status, bulkFailures, searchFailures, false));
        }

        private void fail(Exception e) {
            clearScroll();
            listener.onFailure(e);
        }

        private void clearScroll() {
            if (scrollId == null) {
                return;
            }
            ClearScrollRequest clear = new ClearScrollRequest();
            clear.addScrollId(scrollId);
            scrollId = null;
            client.clearScroll(clear, ActionListener.noop());
        }
    }
}

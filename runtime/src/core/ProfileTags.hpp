// Tags of the profile writer's point-to-point messages on the layer's private duplicate of
// MPI_COMM_WORLD; the layer's own tags (mpi/layer/PrivateWorld.hpp) stay below 16.
#pragma once

namespace vcmon::runtime {

enum ProfileTag : int {
  kHostsTag = 16,         // distinct host names, merged up a binomial tree
  kRecordsTurnTag = 17,   // rank 0 to a rank: send your records now (collection at rank 0)
  kRecordsChunkTag = 18,  // ... and the rank's records, a chunk a message
  kSummaryTag = 19,       // the job's summary, reduced up a binomial tree
  kPartnerSharesTag = 20, // a rank's sums with a partner, to the partner's rank
};

} // namespace vcmon::runtime

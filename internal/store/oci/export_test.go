package oci

// SetCatalogLimits lowers Catalog's caps and page size, so tests reach
// them with a few packages.
func (r *Registry) SetCatalogLimits(repositories, tags, pageSize int) {
	r.limits.repositories, r.limits.tags, r.limits.pageSize = repositories, tags, pageSize
}

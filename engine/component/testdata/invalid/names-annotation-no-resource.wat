;; [method]r.m with no resource r imported before it.
(component
  (import "[method]r.m" (func))
)

(component)

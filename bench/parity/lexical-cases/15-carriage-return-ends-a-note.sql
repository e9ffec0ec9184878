-- nl: a noteselect 1 as a

select 1$$; /* nl: a dollar quote right after a number */; $$;

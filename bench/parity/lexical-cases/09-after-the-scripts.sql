select count(*) as rows from parity_dutch;
